// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>
#include "lru_shim.h"

unsigned int nr_cpu_ids = 1;
__thread int lru_shim_cpu;
__thread struct lru_shim_stats lru_shim_stats;
uintptr_t lru_shim_pcpu_base, lru_shim_pcpu_end;
int (*lru_shim_lock_fail)(void *lock);
__thread unsigned long lru_shim_tallies[LRU_TALLY_NR];

void *lru_shim_alloc_percpu(size_t size)
{
	size_t len = (size_t)nr_cpu_ids * LRU_SHIM_UNIT;
	void *p;

	if (size > LRU_SHIM_UNIT || posix_memalign(&p, LRU_SHIM_UNIT, len))
		return NULL;
	memset(p, 0, len);
	lru_shim_pcpu_base = (uintptr_t)p;
	lru_shim_pcpu_end = (uintptr_t)p + len;
	return p;
}

void lru_shim_free_percpu(void *p)
{
	if ((uintptr_t)p == lru_shim_pcpu_base)
		lru_shim_pcpu_base = lru_shim_pcpu_end = 0;
	free(p);
}
