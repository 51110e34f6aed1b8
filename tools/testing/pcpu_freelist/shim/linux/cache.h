/* SPDX-License-Identifier: GPL-2.0-only */
#include "../pcpu_shim.h"
#undef SMP_CACHE_BYTES
#define SMP_CACHE_BYTES 64	/* x86; tools/include says 32 */
