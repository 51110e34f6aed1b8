#include_next <linux/errno.h>
