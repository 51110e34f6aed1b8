#include_next <linux/types.h>
#include "pcpu_shim.h"
