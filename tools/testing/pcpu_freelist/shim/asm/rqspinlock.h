/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rqspinlock (7.3): raw_res_spin_lock() returns 0 once it holds the lock, or
 * an error (deadlock, timeout) without it. Here a contended lock times out
 * after 250 ms, and a test can make any acquisition fail first: see
 * pcpu_shim_res_lock_fail.
 */
#ifndef PCPU_SHIM_RQSPINLOCK_H
#define PCPU_SHIM_RQSPINLOCK_H
#include "../pcpu_shim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	int locked;
} rqspinlock_t;

/* failure injection: when set, an error it returns fails that acquisition */
extern int (*pcpu_shim_res_lock_fail)(rqspinlock_t *lock);
int pcpu_shim_res_lock_slow(int *locked);

#define raw_res_spin_lock_init(l) \
	__atomic_store_n(&(l)->locked, 0, __ATOMIC_RELAXED)

static inline int raw_res_spin_lock(rqspinlock_t *l)
{
	int (*fail)(rqspinlock_t *l) = pcpu_shim_res_lock_fail;
	int err;

	pcpu_shim_lock_window(l);
	if (unlikely(fail) && (err = fail(l))) {
		pcpu_shim_stats.trylock_failed++;
		return err;
	}
	if (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE) &&
	    (pcpu_shim_tally_contended(),
	     (err = pcpu_shim_res_lock_slow(&l->locked)))) {
		pcpu_shim_stats.trylock_failed++;
		return err;
	}
	pcpu_shim_locked(l);
	return 0;
}

#define raw_res_spin_unlock(l)	pcpu_shim_unlock((l), &(l)->locked)

#ifdef __cplusplus
}
#endif
#endif
