/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rqspinlock: 0 once held, or an error without the lock. Here every
 * acquisition is counted (lru_shim_stats) and a test can make one fail.
 */
#ifndef LRU_SHIM_RQSPINLOCK_H
#define LRU_SHIM_RQSPINLOCK_H
#include <errno.h>
#include "../lru_shim.h"

typedef struct {
	int locked;
} rqspinlock_t;

#define raw_res_spin_lock_init(l) __atomic_store_n(&(l)->locked, 0, __ATOMIC_RELAXED)

static inline int raw_res_spin_lock(rqspinlock_t *l)
{
	uintptr_t a = (uintptr_t)l;

	if (unlikely(lru_shim_lock_fail) && lru_shim_lock_fail(l)) {
		lru_shim_stats.failed++;
		return -ETIMEDOUT;
	}
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
	lru_shim_stats.locks++;
	if (a >= lru_shim_pcpu_base && a < lru_shim_pcpu_end) {
		lru_shim_stats.local_locks++;
		if ((a - lru_shim_pcpu_base) / LRU_SHIM_UNIT != (uintptr_t)lru_shim_cpu)
			lru_shim_stats.remote_locks++;
	}
	return 0;
}

#define raw_res_spin_unlock(l)	__atomic_store_n(&(l)->locked, 0, __ATOMIC_RELEASE)
#define raw_res_spin_lock_irqsave(l, f)	({ (f) = 0; raw_res_spin_lock(l); })
#define raw_res_spin_unlock_irqrestore(l, f) \
	do { (void)(f); raw_res_spin_unlock(l); } while (0)
#endif
