/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What tools/include lacks for kernel/bpf/bpf_lru_list.c: possible CPUs,
 * per-CPU units, the calling thread's CPU, and per-thread counts of the
 * rqspinlock acquisitions (asm/rqspinlock.h) the file makes.
 */
#ifndef LRU_SHIM_H
#define LRU_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <asm/bug.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ____cacheline_aligned_in_smp	__attribute__((__aligned__(64)))
/* the kernel's clamp() takes a u32 against int constants; tools/include's warns */
#undef clamp
#define clamp(v, lo, hi)	((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))

/* possible CPUs are 0..nr_cpu_ids-1; a thread plays lru_shim_cpu */
extern unsigned int nr_cpu_ids;
extern __thread int lru_shim_cpu;
#define raw_smp_processor_id()	(lru_shim_cpu)
#define smp_processor_id()	(lru_shim_cpu)

/* per-CPU units 4 KiB apart, as in a percpu chunk no two share a line */
#define LRU_SHIM_UNIT		4096UL
#define __percpu
void *lru_shim_alloc_percpu(size_t size);
void lru_shim_free_percpu(void *p);
#define alloc_percpu(type)	((type *)lru_shim_alloc_percpu(sizeof(type)))
#define free_percpu(p)		lru_shim_free_percpu(p)
#define per_cpu_ptr(p, cpu) \
	((__typeof__(p))((char *)(p) + (size_t)(cpu) * LRU_SHIM_UNIT))

/* what the calling thread's lock acquisitions did */
struct lru_shim_stats {
	unsigned long locks;		/* every rqspinlock taken */
	unsigned long remote_locks;	/* of them, another CPU's per-CPU unit */
	unsigned long local_locks;	/* of them, any CPU's per-CPU unit */
	unsigned long failed;		/* acquisitions a test made fail */
};
extern __thread struct lru_shim_stats lru_shim_stats;
/* the last per-CPU allocation, to classify the locks */
extern uintptr_t lru_shim_pcpu_base, lru_shim_pcpu_end;
/* a test may make an acquisition fail (rqspinlock: deadlock or timeout) */
extern int (*lru_shim_lock_fail)(void *lock);

/*
 * The tally build (bpf_lru_mtt) compiles the file with tally/counters.patch
 * applied: lru_shim_tally(NAME) counts, per thread, the nodes the refill's
 * rotations and shrink visit. The file as it is never calls it.
 */
enum lru_shim_tally_kind {
	LRU_TALLY_ROTATE_ACTIVE,	/* nodes __bpf_lru_list_rotate_active() visited */
	LRU_TALLY_ROTATE_INACTIVE,	/* nodes __bpf_lru_list_rotate_inactive() visited */
	LRU_TALLY_SHRINK_SCAN,		/* nodes __bpf_lru_list_shrink_inactive() visited */
	LRU_TALLY_FORCE,		/* shrinks that found nothing and forced one */
	LRU_TALLY_FORCE_SCAN,		/* nodes the forced shrink visited */
	LRU_TALLY_SHRUNK,		/* nodes either shrink moved to a free list */
	LRU_TALLY_NR,
};
extern __thread unsigned long lru_shim_tallies[LRU_TALLY_NR];
#define lru_shim_tally(kind)	((void)lru_shim_tallies[LRU_TALLY_##kind]++)

#ifdef __cplusplus
}
#endif
#endif
