/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace model of the kernel facilities kernel/bpf/percpu_freelist.c uses.
 * Every <linux/...> header in this directory includes this one file.
 * Must stay includable from C (gcc) and C++ (g++, the test driver).
 */
#ifndef PCPU_SHIM_H
#define PCPU_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif
#include <asm-generic/errno-base.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;

#define __percpu
#define __rcu
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" ::: "memory")
#define cpu_relax()		__builtin_ia32_pause()
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define BUILD_BUG_ON(c)		((void)sizeof(char[1 - 2 * !!(c)]))
#define WARN_ON_ONCE(c)		(!!(c))
#define WARN_ON(c)		(!!(c))

/*
 * Normal build: volatile accesses, as in the kernel.  TSan build: relaxed
 * atomics, so the lockless accesses the code marks are not reported while
 * every plain access stays plain and real races are still reported.
 */
#ifdef __SANITIZE_THREAD__
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define data_race(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#else
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define data_race(x)		READ_ONCE(x)
#endif

/* preempt / irq / nmi: interrupts are no-ops, NMI context is per thread */
extern __thread int pcpu_shim_in_nmi;
#define in_nmi()		(pcpu_shim_in_nmi)
#define local_irq_save(f)	do { (f) = 0; } while (0)
#define local_irq_restore(f)	do { (void)(f); } while (0)
#define local_irq_disable()	do { } while (0)
#define local_irq_enable()	do { } while (0)
#define preempt_disable()	barrier()
#define preempt_enable()	barrier()

/* what the calling thread did, for tests and benchmarks */
struct pcpu_shim_stats {
	unsigned long lock_acquired;	/* lock() + successful trylock() */
	unsigned long trylock_failed;
	unsigned long shared_rmw;	/* set_bit() + clear_bit() */
};
extern __thread struct pcpu_shim_stats pcpu_shim_stats;

/* bitops */
#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define BIT_WORD(n)		((n) / BITS_PER_LONG)
#define BIT_MASK(n)		(1UL << ((n) % BITS_PER_LONG))
#define __ffs(w)		((unsigned long)__builtin_ctzl(w))

/* atomic read-modify-writes of shared words, counted per thread */
#define pcpu_shim_count_rmw()	(pcpu_shim_stats.shared_rmw++)

static inline void set_bit(long nr, volatile unsigned long *addr)
{
	pcpu_shim_count_rmw();
	__atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	pcpu_shim_count_rmw();
	__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void __set_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return __atomic_load_n(addr + BIT_WORD(nr), __ATOMIC_RELAXED) &
	       BIT_MASK(nr);
}

/* lockless reads of whole words, like the kernel's find_*_bit */
static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long off)
{
	unsigned long w;

	if (off >= size)
		return size;
	w = __atomic_load_n(addr + BIT_WORD(off), __ATOMIC_RELAXED) &
	    (~0UL << (off % BITS_PER_LONG));
	off -= off % BITS_PER_LONG;
	while (!w) {
		off += BITS_PER_LONG;
		if (off >= size)
			return size;
		w = __atomic_load_n(addr + BIT_WORD(off), __ATOMIC_RELAXED);
	}
	off += __ffs(w);
	return off < size ? off : size;
}

#define find_first_bit(addr, size)	find_next_bit((addr), (size), 0)

static inline unsigned long find_next_bit_wrap(const unsigned long *addr,
					       unsigned long size,
					       unsigned long off)
{
	unsigned long bit = find_next_bit(addr, size, off);

	if (bit < size)
		return bit;
	bit = find_next_bit(addr, off, 0);
	return bit < off ? bit : size;
}

/* next set bit after a wrapped walk from @start reached @n; else size */
static inline unsigned long __for_each_wrap(const unsigned long *addr,
					    unsigned long size,
					    unsigned long start,
					    unsigned long n)
{
	unsigned long bit;

	if (n > start) {
		bit = find_next_bit(addr, size, n);
		if (bit < size)
			return bit;
		n = 0;
	}
	bit = find_next_bit(addr, start, n);
	return bit < start ? bit : size;
}
#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = find_next_bit((addr), (size), 0); (bit) < (size);	\
	     (bit) = find_next_bit((addr), (size), (bit) + 1))
#define for_each_set_bit_wrap(bit, addr, size, start)			\
	for ((bit) = find_next_bit_wrap((addr), (size), (start));	\
	     (bit) < (size);						\
	     (bit) = __for_each_wrap((addr), (size), (start), (bit) + 1))

/*
 * slab: kmalloc() size classes, as in SLUB.  Objects of a class are carved
 * back to back from 64 KiB slabs, and a freed object is the next one handed
 * out, so two objects allocated one after the other are neighbours (two
 * kmalloc-8 bitmaps share a cache line) and power-of-two sizes are naturally
 * aligned, as the kernel guarantees.
 */
#define GFP_KERNEL		0u
#define GFP_ATOMIC		0u
#define __GFP_ZERO		0u
void *pcpu_shim_kmalloc(size_t size, bool zero);
void pcpu_shim_kfree(const void *p);
#define kmalloc(s, gfp)		pcpu_shim_kmalloc((s), false)
#define kzalloc(s, gfp)		pcpu_shim_kmalloc((s), true)
#define kcalloc(n, s, gfp)	pcpu_shim_kmalloc((n) * (s), true)
#define kfree(p)		pcpu_shim_kfree(p)
#define bitmap_zalloc(nbits, gfp) \
	((unsigned long *)kzalloc(BITS_TO_LONGS(nbits) * sizeof(long), (gfp)))
#define bitmap_free(p)		kfree(p)
#define SMP_CACHE_BYTES		64
#define ALIGN(x, a)		(((x) + (a) - 1) / (a) * (a))
#define BIT(n)			(1UL << (n))

/* cpus: nr_cpu_ids possible cpus, 0..nr_cpu_ids-1, set at runtime */
#define NR_CPUS			1024
struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};
extern unsigned int nr_cpu_ids;
extern struct cpumask pcpu_shim_possible;
extern __thread int pcpu_shim_cpu;
#define cpu_possible_mask	((const struct cpumask *)&pcpu_shim_possible)
#define cpumask_bits(m)		((m)->bits)
#define nr_cpumask_bits		nr_cpu_ids
#define num_possible_cpus()	nr_cpu_ids
#define raw_smp_processor_id()	(pcpu_shim_cpu)
#define smp_processor_id()	(pcpu_shim_cpu)
#define for_each_cpu(cpu, mask) \
	for_each_set_bit(cpu, cpumask_bits(mask), nr_cpumask_bits)
#define for_each_cpu_wrap(cpu, mask, start) \
	for_each_set_bit_wrap(cpu, cpumask_bits(mask), nr_cpumask_bits, start)
#define for_each_possible_cpu(cpu)	for_each_cpu((cpu), cpu_possible_mask)

/*
 * percpu: one zeroed block of nr_cpu_ids units; CPU n's copy is at
 * base + n * PCPU_SHIM_UNIT.  Units are page strided, like the units of a
 * real percpu chunk, so no two CPUs' copies ever share a cache line (or a
 * page).  alloc_percpu() returns NULL for types larger than one unit.
 */
#define PCPU_SHIM_UNIT		4096UL
void *pcpu_shim_alloc(size_t size);
#define alloc_percpu(type)	((type __percpu *)pcpu_shim_alloc(sizeof(type)))
#define free_percpu(p)		free((void *)(p))
#define per_cpu_ptr(p, cpu) \
	((__typeof__(p))((char *)(p) + (size_t)(cpu) * PCPU_SHIM_UNIT))
#define this_cpu_ptr(p)		per_cpu_ptr((p), raw_smp_processor_id())

/*
 * raw spinlock: test-and-test-and-set on an int.  Every acquisition and every
 * failed trylock is counted in the calling thread's pcpu_shim_stats.
 */
typedef struct {
	int locked;
} raw_spinlock_t;


void pcpu_shim_lock_slow(raw_spinlock_t *l);

static inline void raw_spin_lock_init(raw_spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELAXED);
}

static inline bool raw_spin_trylock(raw_spinlock_t *l)
{
	if (__atomic_load_n(&l->locked, __ATOMIC_RELAXED) ||
	    __atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)) {
		pcpu_shim_stats.trylock_failed++;
		return false;
	}
	pcpu_shim_stats.lock_acquired++;
	return true;
}

static inline void raw_spin_lock(raw_spinlock_t *l)
{
	if (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		pcpu_shim_lock_slow(l);
	pcpu_shim_stats.lock_acquired++;
}

/*
 * Tests may run a callback right after this thread releases a lock, to put
 * another CPU's operation into the window that follows an unlock.
 */
extern __thread void (*pcpu_shim_after_unlock)(raw_spinlock_t *l);

static inline void raw_spin_unlock(raw_spinlock_t *l)
{
	void (*fn)(raw_spinlock_t *l) = pcpu_shim_after_unlock;

	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
	if (unlikely(fn)) {
		pcpu_shim_after_unlock = NULL;	/* once, and not recursively */
		fn(l);
	}
}

/* harness side: set the number of possible CPUs (1..NR_CPUS) before init */
int pcpu_shim_set_nr_cpus(unsigned int n);

#ifdef __cplusplus
}
#endif

#endif /* PCPU_SHIM_H */
