#include "pcpu_shim.h"
