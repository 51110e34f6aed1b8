/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the kernel's tools/include lacks for kernel/bpf/percpu_freelist.c:
 * raw spinlocks, percpu, cpumasks, NMI/irq state, kmalloc, jiffies, and
 * counted atomic bitops. Everything else (types, READ_ONCE, BIT, __ffs,
 * BITS_TO_LONGS, ALIGN, container_of) comes from the tested kernel's own
 * tools/include, which the Makefile puts after this directory.
 *
 * Builds (see the Makefile): plain (timing), PCPU_SHIM_CHECK (tests: which
 * locks a thread holds, so a test can check that a hint bit is written only
 * under its head's lock), PCPU_SHIM_COUNT (the cost model's simulation: a
 * "last writer per cache line" table classifies every marked access).
 */
#ifndef PCPU_SHIM_H
#define PCPU_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/bitops.h>
/*
 * The kernel's test_bit() is an atomic read for the race detectors
 * (asm-generic/bitops/instrumented-non-atomic.h: instrument_atomic_read());
 * tools/include's is a plain one. Read it as the kernel does.
 */
#undef test_bit
#define test_bit(nr, addr)						\
	((__atomic_load_n((addr) + BIT_WORD(nr), __ATOMIC_RELAXED) >>	\
	  ((nr) & (BITS_PER_LONG - 1))) & 1UL)
#ifndef ALIGN
#include <linux/align.h>
#endif
#include <asm-generic/errno-base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* what the calling thread did, for tests, benchmarks and the cost model */
struct pcpu_shim_stats {
	unsigned long lock_acquired;	/* lock() + successful trylock() */
	unsigned long trylock_failed;	/* + injected rqspinlock failures */
	unsigned long shared_rmw;	/* set_bit() + clear_bit() */
	/* PCPU_SHIM_COUNT only */
	unsigned long remote_lock;	/* locks in another CPU's percpu unit */
	unsigned long clean_read;	/* marked reads of lines no other CPU wrote since */
	unsigned long remote_read;	/* those of them in another CPU's percpu unit */
	unsigned long miss_read;	/* marked reads of lines another CPU wrote last */
	unsigned long miss_rmw;		/* RMWs/writes of lines another CPU wrote or read */
	unsigned long hint_miss_read;	/* the same two, on the hint's lines */
	unsigned long hint_miss_rmw;
	/* PCPU_SHIM_TALLY (native, pcpu_freelist_mtt) only */
	unsigned long contended;	/* locks that had to wait */
	unsigned long delays;		/* ndelay() calls */
	unsigned long delay_ns;		/* and their nanoseconds */
};
extern __thread struct pcpu_shim_stats pcpu_shim_stats;

/* cpus: nr_cpu_ids possible cpus, 0..nr_cpu_ids-1; the thread's cpu */
#ifndef NR_CPUS
#define NR_CPUS			8192	/* x86-64 MAXSMP */
#endif
#ifndef SMP_CACHE_BYTES
#define SMP_CACHE_BYTES		64	/* x86, as linux/cache.h here */
#endif
extern unsigned int nr_cpu_ids;
extern __thread int pcpu_shim_cpu;
extern __thread int pcpu_shim_in_nmi;
int pcpu_shim_set_nr_cpus(unsigned int n);	/* 1..NR_CPUS, before init */

enum { PCPU_SHIM_READ, PCPU_SHIM_WRITE, PCPU_SHIM_RMW, PCPU_SHIM_HINT_RMW };
void pcpu_shim_access(const volatile void *p, int kind);
#ifdef PCPU_SHIM_COUNT
#undef READ_ONCE
#undef WRITE_ONCE
#define READ_ONCE(x) ({ pcpu_shim_access(&(x), PCPU_SHIM_READ); \
			*(const volatile __typeof__(x) *)&(x); })
#define WRITE_ONCE(x, v) do { pcpu_shim_access(&(x), PCPU_SHIM_WRITE); \
			      *(volatile __typeof__(x) *)&(x) = (v); } while (0)
#define pcpu_shim_count(p, kind)	pcpu_shim_access((p), (kind))
#else
#define pcpu_shim_count(p, kind)	do { } while (0)
#endif

/*
 * TSan: relaxed atomics for the accesses the code marks, so that they are not
 * reported while every plain access stays plain and real races still are.
 */
#ifdef __SANITIZE_THREAD__
#undef READ_ONCE
#undef WRITE_ONCE
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#endif
/*
 * data_race(EXPR): EXPR's reads race on purpose. EXPR, a load or a search of
 * a bitmap, is evaluated once as it is; under TSan its reads are ignored, as
 * KCSAN ignores them in the kernel.
 */
#ifndef data_race
#ifdef __SANITIZE_THREAD__
#ifdef __cplusplus
extern "C" {
#endif
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
#ifdef __cplusplus
}
#endif
#define data_race(x) ({ AnnotateIgnoreReadsBegin(__FILE__, __LINE__);	\
	__typeof__((x)) __dr_v = (x);					\
	AnnotateIgnoreReadsEnd(__FILE__, __LINE__); __dr_v; })
#else
#define data_race(x)		({ __typeof__((x)) __dr_v = (x); __dr_v; })
#endif
#endif
#ifndef cpu_relax
#define cpu_relax()		__builtin_ia32_pause()
#endif

/* preempt / irq / nmi: interrupts are no-ops, NMI context is per thread */
#define in_nmi()		(pcpu_shim_in_nmi)
#define local_irq_save(f)	do { (f) = 0; } while (0)
#define local_irq_restore(f)	do { (void)(f); } while (0)
#define preempt_disable()	barrier()
#define preempt_enable()	barrier()

/*
 * Held-lock tracking (PCPU_SHIM_CHECK) and a hook every atomic bitop calls:
 * a test checks there that the bit's head is locked by this thread.
 */
bool pcpu_shim_holds(const void *lock);
void pcpu_shim_held(const void *lock, bool held);
extern void (*pcpu_shim_bitop_hook)(long nr, const volatile unsigned long *addr);
#ifdef PCPU_SHIM_CHECK
#define pcpu_shim_track(l, held)	pcpu_shim_held((l), (held))
#else
#define pcpu_shim_track(l, held)	do { } while (0)
#endif

/* raw spinlock: test-and-test-and-set, every acquisition counted */
typedef struct {
	int locked;
} raw_spinlock_t;

void pcpu_shim_lock_slow(int *locked);
void pcpu_shim_count_lock(const void *lock);

/*
 * PCPU_SHIM_TALLY: the native run counts remote-head locks cheaply, by the
 * address range of the (last) percpu allocation.
 */
extern uintptr_t pcpu_shim_pcpu_base, pcpu_shim_pcpu_end;
#define PCPU_SHIM_UNIT		4096UL	/* see percpu, below */

/* a lock was taken: count it (and classify it, and track it) */
static inline void pcpu_shim_locked(void *l)
{
	pcpu_shim_stats.lock_acquired++;
	pcpu_shim_track(l, true);
#ifdef PCPU_SHIM_COUNT
	pcpu_shim_count_lock(l);
#endif
#ifdef PCPU_SHIM_TALLY
	if ((uintptr_t)l >= pcpu_shim_pcpu_base &&
	    (uintptr_t)l < pcpu_shim_pcpu_end &&
	    ((uintptr_t)l - pcpu_shim_pcpu_base) / PCPU_SHIM_UNIT !=
	    (uintptr_t)pcpu_shim_cpu)
		pcpu_shim_stats.remote_lock++;
#endif
}
extern __thread void (*pcpu_shim_after_unlock)(void *lock);

/* Run a test's callback for lock @l once, and not recursively. */
static inline void pcpu_shim_call_once(void (**hook)(void *l), void *l)
{
	void (*fn)(void *l) = *hook;

	if (unlikely(fn)) {
		*hook = NULL;
		fn(l);
	}
}

/*
 * The test build (PCPU_SHIM_CHECK) lets a test run a callback in this thread
 * right before it acquires a lock: what another CPU did between the moment
 * the code decided to lock and the lock itself.
 */
extern __thread void (*pcpu_shim_before_lock)(void *lock);
#ifdef PCPU_SHIM_CHECK
#define pcpu_shim_lock_window(l)	pcpu_shim_call_once(&pcpu_shim_before_lock, (l))
#else
#define pcpu_shim_lock_window(l)	do { } while (0)
#endif

static inline void raw_spin_lock_init(raw_spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELAXED);
}

static inline bool raw_spin_trylock(raw_spinlock_t *l)
{
	pcpu_shim_lock_window(l);
	if (__atomic_load_n(&l->locked, __ATOMIC_RELAXED) ||
	    __atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)) {
		pcpu_shim_stats.trylock_failed++;
		return false;
	}
	pcpu_shim_locked(l);
	return true;
}

#ifdef PCPU_SHIM_TALLY
#define pcpu_shim_tally_contended()	((void)pcpu_shim_stats.contended++)
#else
#define pcpu_shim_tally_contended()	((void)0)
#endif

static inline void raw_spin_lock(raw_spinlock_t *l)
{
	pcpu_shim_lock_window(l);
	if (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)) {
		pcpu_shim_tally_contended();
		pcpu_shim_lock_slow(&l->locked);
	}
	pcpu_shim_locked(l);
}

/* A test may run a callback right after this thread releases a lock. */
static inline void pcpu_shim_unlock(void *l, int *locked)
{
	pcpu_shim_track(l, false);
	pcpu_shim_count(locked, PCPU_SHIM_WRITE);
	__atomic_store_n(locked, 0, __ATOMIC_RELEASE);
	pcpu_shim_call_once(&pcpu_shim_after_unlock, l);
}

static inline void raw_spin_unlock(raw_spinlock_t *l)
{
	pcpu_shim_unlock(l, &l->locked);
}

/* atomic bitops: counted, checked, and classified in the count build */
static inline void set_bit(long nr, volatile unsigned long *addr)
{
	pcpu_shim_stats.shared_rmw++;
	if (pcpu_shim_bitop_hook)
		pcpu_shim_bitop_hook(nr, addr);
	pcpu_shim_count(addr + BIT_WORD(nr), PCPU_SHIM_HINT_RMW);
	__atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	pcpu_shim_stats.shared_rmw++;
	if (pcpu_shim_bitop_hook)
		pcpu_shim_bitop_hook(nr, addr);
	pcpu_shim_count(addr + BIT_WORD(nr), PCPU_SHIM_HINT_RMW);
	__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr), __ATOMIC_RELAXED);
}

/* atomic_t (the hint's count of set bits): counted as the bitops are */
static inline int atomic_read(const atomic_t *v)
{
	pcpu_shim_count(&v->counter, PCPU_SHIM_READ);
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_add(int i, atomic_t *v)
{
	pcpu_shim_stats.shared_rmw++;
	pcpu_shim_count(&v->counter, PCPU_SHIM_HINT_RMW);
	__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);
}
#define atomic_inc(v)		atomic_add(1, (v))
#define atomic_dec(v)		atomic_add(-1, (v))

/*
 * Barriers and cmpxchg() (the hint's summary in v3), where tools/include
 * has none: a cmpxchg() is counted and classified as the bitops are.
 */
#ifndef smp_rmb
#define smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#endif
#ifndef smp_mb__after_atomic
#define smp_mb__after_atomic()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
#ifndef smp_store_release
#define smp_store_release(p, v) do {					\
	pcpu_shim_count((p), PCPU_SHIM_WRITE);				\
	__atomic_store_n((p), (v), __ATOMIC_RELEASE);			\
} while (0)
#endif
#undef cmpxchg
#define cmpxchg(p, o, n) ({						\
	__typeof__(*(p)) __pcpu_old = (o);				\
									\
	pcpu_shim_stats.shared_rmw++;					\
	pcpu_shim_count((p), PCPU_SHIM_HINT_RMW);			\
	__atomic_compare_exchange_n((p), &__pcpu_old, (n), false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	__pcpu_old;							\
})

/* cpumask of the possible cpus, and the wrapped walk the base uses */
struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};
extern struct cpumask pcpu_shim_possible;
#define cpu_possible_mask	((const struct cpumask *)&pcpu_shim_possible)
#define num_possible_cpus()	nr_cpu_ids
#define raw_smp_processor_id()	(pcpu_shim_cpu)
#define smp_processor_id()	(pcpu_shim_cpu)
unsigned int pcpu_shim_next_cpu(const struct cpumask *m, unsigned int n);
unsigned int pcpu_shim_next_wrap(const struct cpumask *m, unsigned int start,
				 unsigned int n, bool first);
#define for_each_cpu(cpu, mask)						\
	for ((cpu) = pcpu_shim_next_cpu((mask), 0); (cpu) < nr_cpu_ids;	\
	     (cpu) = pcpu_shim_next_cpu((mask), (cpu) + 1))
#define for_each_possible_cpu(cpu)	for_each_cpu((cpu), cpu_possible_mask)
#define for_each_cpu_wrap(cpu, mask, start)				\
	for ((cpu) = pcpu_shim_next_wrap((mask), (start), (start), true);	\
	     (cpu) < nr_cpu_ids;						\
	     (cpu) = pcpu_shim_next_wrap((mask), (start), (cpu) + 1, false))

/*
 * find_next_bit() of a bitmap that other CPUs write: a word at a time, as
 * lib/find_bit.c reads it, each word read once (and counted).
 */
unsigned long pcpu_shim_find_next_bit(const unsigned long *addr,
				      unsigned long size, unsigned long offset);
/* as the kernel's, of the two helpers below */
#define for_each_set_bit_wrap(bit, addr, size, start)			\
	for ((bit) = find_next_bit_wrap((addr), (size), (start));	\
	     (bit) < (size);						\
	     (bit) = __for_each_wrap((addr), (size), (start), (bit) + 1))
static inline unsigned long
pcpu_shim_find_next_bit_wrap(const unsigned long *addr, unsigned long size,
			     unsigned long start, unsigned long n, bool first)
{
	unsigned long bit;

	if (first || n > start) {
		bit = pcpu_shim_find_next_bit(addr, size, n);
		if (bit < size)
			return bit;
		n = 0;
	}
	bit = pcpu_shim_find_next_bit(addr, start, n);
	return bit < start ? bit : size;
}
/* the kernel's helpers of for_each_set_bit_wrap(), for a file that open-codes it */
static inline unsigned long find_next_bit_wrap(const unsigned long *addr,
					       unsigned long size, unsigned long offset)
{
	return pcpu_shim_find_next_bit_wrap(addr, size, offset, offset, true);
}
static inline unsigned long __for_each_wrap(const unsigned long *addr, unsigned long size,
					    unsigned long start, unsigned long n)
{
	return pcpu_shim_find_next_bit_wrap(addr, size, start, n, false);
}

/*
 * percpu: one zeroed block of nr_cpu_ids page-strided units, like the units of
 * a real percpu chunk: no two CPUs' copies ever share a line or a page.
 */
#define __percpu
void *pcpu_shim_alloc(size_t size);
#define alloc_percpu(type)	((type __percpu *)pcpu_shim_alloc(sizeof(type)))
#define free_percpu(p)		free((void *)(p))
#define per_cpu_ptr(p, cpu) \
	((__typeof__(p))((char *)(p) + (size_t)(cpu) * PCPU_SHIM_UNIT))
#define this_cpu_ptr(p)		per_cpu_ptr((p), raw_smp_processor_id())

/*
 * slab: kmalloc() size classes as in SLUB, objects of a class back to back,
 * so two small objects allocated one after the other share a cache line.
 */
void *pcpu_shim_kmalloc(size_t size, bool zero);
void pcpu_shim_kfree(const void *p);
#define kmalloc(s, gfp)		pcpu_shim_kmalloc((s), false)
#define kzalloc(s, gfp)		pcpu_shim_kmalloc((s), true)
#define kfree(p)		pcpu_shim_kfree(p)

/* jiffies: advanced by the harness (a ticker thread, or a test) */
extern unsigned long pcpu_shim_jiffies;
#define jiffies			READ_ONCE(pcpu_shim_jiffies)
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)
#define time_in_range(a, b, c)	(time_after_eq(a, b) && time_before_eq(a, c))

/*
 * ndelay: a busy wait on the monotonic clock; in the simulation
 * (PCPU_SHIM_COUNT) no wait: the step's virtual time counts delay_ns.
 */
static inline void ndelay(unsigned long ns)
{
#ifndef PCPU_SHIM_COUNT
	struct timespec a, b;
#endif

	pcpu_shim_stats.delays++;
	pcpu_shim_stats.delay_ns += ns;
#ifndef PCPU_SHIM_COUNT
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		cpu_relax();
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((unsigned long)((b.tv_sec - a.tv_sec) * 1000000000L + b.tv_nsec - a.tv_nsec) < ns);
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* PCPU_SHIM_H */
