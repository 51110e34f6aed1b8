/* SPDX-License-Identifier: GPL-2.0-only */
#include_next <linux/bitmap.h>
#include "../pcpu_shim.h"
/* The kernel's take GFP flags, and come from the slab (see kmalloc()). */
#undef bitmap_zalloc
#define bitmap_zalloc(nbits, gfp)					\
	((unsigned long *)kzalloc(BITS_TO_LONGS(nbits) * sizeof(long), (gfp)))
#define bitmap_free(p)		kfree(p)
