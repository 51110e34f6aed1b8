// SPDX-License-Identifier: GPL-2.0-only
/* Definitions behind pcpu_shim.h and asm/rqspinlock.h. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include "pcpu_shim.h"
#include "asm/rqspinlock.h"

unsigned int nr_cpu_ids = 1;
struct cpumask pcpu_shim_possible = { .bits = { 1UL } };
__thread int pcpu_shim_cpu;
__thread int pcpu_shim_in_nmi;
__thread struct pcpu_shim_stats pcpu_shim_stats;
__thread void (*pcpu_shim_after_unlock)(void *lock);
__thread void (*pcpu_shim_before_lock)(void *lock);
void (*pcpu_shim_bitop_hook)(long nr, const volatile unsigned long *addr);
int (*pcpu_shim_res_lock_fail)(rqspinlock_t *lock);
unsigned long pcpu_shim_jiffies;
uintptr_t pcpu_shim_pcpu_base, pcpu_shim_pcpu_end;

int pcpu_shim_set_nr_cpus(unsigned int n)
{
	unsigned int cpu;

	if (n < 1 || n > NR_CPUS)
		return -EINVAL;
	memset(&pcpu_shim_possible, 0, sizeof(pcpu_shim_possible));
	for (cpu = 0; cpu < n; cpu++)
		pcpu_shim_possible.bits[BIT_WORD(cpu)] |= BIT_MASK(cpu);
	nr_cpu_ids = n;
	return 0;
}

unsigned int pcpu_shim_next_cpu(const struct cpumask *m, unsigned int n)
{
	for (; n < nr_cpu_ids; n++)
		if (m->bits[BIT_WORD(n)] & BIT_MASK(n))
			return n;
	return nr_cpu_ids;
}

unsigned long pcpu_shim_find_next_bit(const unsigned long *addr,
				      unsigned long size, unsigned long offset)
{
	unsigned long idx, word;

	for (idx = BIT_WORD(offset); idx * BITS_PER_LONG < size; idx++) {
		pcpu_shim_count(&addr[idx], PCPU_SHIM_READ);
		word = __atomic_load_n(&addr[idx], __ATOMIC_RELAXED);
		if (idx == BIT_WORD(offset))
			word &= ~0UL << (offset % BITS_PER_LONG);
		if (word) {
			offset = idx * BITS_PER_LONG + __builtin_ctzl(word);
			return offset < size ? offset : size;
		}
	}
	return size;
}

/* The next cpu of a walk from @start up to the end, then from 0 to @start. */
unsigned int pcpu_shim_next_wrap(const struct cpumask *m, unsigned int start,
				 unsigned int n, bool first)
{
	unsigned int cpu;

	if (first || n > start) {
		cpu = pcpu_shim_next_cpu(m, n);
		if (cpu < nr_cpu_ids)
			return cpu;
		n = 0;
	}
	cpu = pcpu_shim_next_cpu(m, n);
	return cpu < start ? cpu : nr_cpu_ids;
}

/* percpu allocations, to tell which cpu's unit an address is in */
static struct { char *base; } pcpu_allocs[64];
static unsigned int nr_pcpu_allocs;

void *pcpu_shim_alloc(size_t size)
{
	void *p;

	if (size > PCPU_SHIM_UNIT)
		return NULL;
	p = aligned_alloc(PCPU_SHIM_UNIT, nr_cpu_ids * PCPU_SHIM_UNIT);
	if (p) {
		memset(p, 0, nr_cpu_ids * PCPU_SHIM_UNIT);
		pcpu_allocs[nr_pcpu_allocs++ % 64].base = p;
		pcpu_shim_pcpu_base = (uintptr_t)p;
		pcpu_shim_pcpu_end = (uintptr_t)p + nr_cpu_ids * PCPU_SHIM_UNIT;
	}
	return p;
}

/* The cpu whose percpu unit holds @p, or -1. */
static int pcpu_shim_unit_cpu(const void *p)
{
	unsigned int i;

	for (i = 0; i < 64; i++) {
		char *b = pcpu_allocs[i].base;

		if (b && (const char *)p >= b &&
		    (const char *)p < b + nr_cpu_ids * PCPU_SHIM_UNIT)
			return ((const char *)p - b) / PCPU_SHIM_UNIT;
	}
	return -1;
}

/*
 * Contended path.  Userspace cannot disable preemption, so a lock holder may
 * be descheduled: yield now and then instead of spinning a whole time slice.
 * A raw spinlock not acquired within 10 s is a deadlock: abort. An rqspinlock
 * gives up after 250 ms, as the kernel's times out.
 */
static int lock_slow(int *locked, double limit)
{
	struct timespec t0, t;
	unsigned long spins = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		while (__atomic_load_n(locked, __ATOMIC_RELAXED)) {
			if (++spins % 128) {
				cpu_relax();
				continue;
			}
			sched_yield();
			if (spins % 4096)
				continue;
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) * 1e-9 > limit)
				return -ETIMEDOUT;
		}
	} while (__atomic_exchange_n(locked, 1, __ATOMIC_ACQUIRE));
	return 0;
}

void pcpu_shim_lock_slow(int *locked)
{
	if (lock_slow(locked, 10)) {
		fprintf(stderr, "pcpu_shim: lock %p still held after 10s: deadlock?\n",
			(void *)locked);
		abort();
	}
}

int pcpu_shim_res_lock_slow(int *locked)
{
	return lock_slow(locked, 0.25);
}

/* held locks of this thread (PCPU_SHIM_CHECK builds track them) */
static __thread const void *held[8];
static __thread unsigned int nr_held;

void pcpu_shim_held(const void *lock, bool h)
{
	unsigned int i;

	if (h) {
		if (nr_held < 8)
			held[nr_held++] = lock;
		return;
	}
	for (i = 0; i < nr_held; i++) {
		if (held[i] == lock) {
			held[i] = held[--nr_held];
			return;
		}
	}
}

bool pcpu_shim_holds(const void *lock)
{
	unsigned int i;

	for (i = 0; i < nr_held; i++)
		if (held[i] == lock)
			return true;
	return false;
}

/*
 * The cost model's "last writer per cache line" table (PCPU_SHIM_COUNT
 * builds, one thread playing every cpu in turn): for each 64-byte line, the
 * cpu that wrote it last and the cpus that read it since. A read by a cpu not
 * among them misses; a write or RMW misses unless this cpu wrote the line
 * last and no other cpu read it since.
 */
#define LINE_TABLE	(1u << 16)
struct line {
	uintptr_t tag;		/* line address + 1; 0: free */
	int writer;		/* -1: nobody since the allocation */
	bool hint;		/* target of an atomic bitop */
	unsigned long readers[BITS_TO_LONGS(NR_CPUS)];
};
static struct line *lines;
/* the lines of this thread's last 4 accesses: a read of one is an L1 hit */
static __thread struct line *recent[4];
static __thread unsigned int nr_recent;

static bool was_recent(struct line *l)
{
	unsigned int i;
	bool hit = false;

	for (i = 0; i < 4; i++)
		hit |= recent[i] == l;
	recent[nr_recent++ % 4] = l;
	return hit;
}

static struct line *line_of(const volatile void *p)
{
	uintptr_t tag = ((uintptr_t)p >> 6) + 1;
	unsigned int i = (tag * 0x9e3779b97f4a7c15ull) >> 48;

	if (!lines)
		lines = calloc(LINE_TABLE, sizeof(*lines));
	for (;; i = (i + 1) % LINE_TABLE) {
		if (lines[i].tag == tag)
			return &lines[i];
		if (!lines[i].tag) {
			lines[i].tag = tag;
			lines[i].writer = -1;
			return &lines[i];
		}
	}
}

void pcpu_shim_access(const volatile void *p, int kind)
{
	struct pcpu_shim_stats *st = &pcpu_shim_stats;
	struct line *l = line_of(p);
	int me = pcpu_shim_cpu;
	unsigned int w;
	bool others = false, recently = was_recent(l);

	if (kind == PCPU_SHIM_HINT_RMW)
		l->hint = true;
	if (kind == PCPU_SHIM_READ) {
		if (l->writer < 0 || l->writer == me ||
		    (l->readers[BIT_WORD(me)] & BIT_MASK(me))) {
			int cpu = pcpu_shim_unit_cpu((const void *)p);

			/* another CPU's head, but not one just read */
			st->clean_read++;
			st->remote_read += cpu >= 0 && cpu != me && !recently;
		} else {
			st->miss_read++;
			st->hint_miss_read += l->hint;
		}
		l->readers[BIT_WORD(me)] |= BIT_MASK(me);
		return;
	}
	for (w = 0; w < BITS_TO_LONGS(NR_CPUS); w++)
		others |= (l->readers[w] & ~(w == BIT_WORD(me) ? BIT_MASK(me) : 0)) != 0;
	if ((l->writer >= 0 && l->writer != me) || others) {
		st->miss_rmw++;
		st->hint_miss_rmw += l->hint;
	}
	memset(l->readers, 0, sizeof(l->readers));
	l->readers[BIT_WORD(me)] |= BIT_MASK(me);
	l->writer = me;
}

void pcpu_shim_count_lock(const void *lock)
{
	int cpu = pcpu_shim_unit_cpu(lock);

	if (cpu >= 0 && cpu != pcpu_shim_cpu)
		pcpu_shim_stats.remote_lock++;
	pcpu_shim_access(lock, PCPU_SHIM_RMW);
}

/*
 * kmalloc() size classes.  A slab is 64 KiB, aligned to its size; its first
 * line holds the class, objects start at the first multiple of the object
 * size (of the line, for sizes that are not a power of two) after it.  A
 * request above the largest class gets a slab of its own.
 */
#define SLAB_SIZE	65536UL
static const size_t slab_classes[] = { 8, 16, 32, 64, 96, 128, 192, 256,
				       512, 1024, 2048, 4096 };
#define NR_CLASSES	(sizeof(slab_classes) / sizeof(slab_classes[0]))

struct slab_class {
	char *next, *end;	/* the unused rest of the current slab */
	void *free;		/* freed objects, last freed first */
};
static struct slab_class classes[NR_CLASSES + 1];
static pthread_mutex_t slab_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t obj_offset(size_t size)
{
	return size & (size - 1) ? 64 : (size > 64 ? size : 64);
}

void *pcpu_shim_kmalloc(size_t size, bool zero)
{
	struct slab_class *c;
	unsigned int i;
	char *slab;
	void *p;

	for (i = 0; i < NR_CLASSES && slab_classes[i] < size; i++)
		;
	if (i == NR_CLASSES) {
		slab = aligned_alloc(SLAB_SIZE, (size + 4096 + SLAB_SIZE - 1) / SLAB_SIZE * SLAB_SIZE);
		if (!slab)
			return NULL;
		*(unsigned int *)slab = NR_CLASSES;
		p = slab + 4096;
		goto out;
	}
	size = slab_classes[i];
	c = &classes[i];
	pthread_mutex_lock(&slab_lock);
	p = c->free;
	if (p) {
		c->free = *(void **)p;
	} else {
		if (c->next + size > c->end) {
			slab = aligned_alloc(SLAB_SIZE, SLAB_SIZE);
			if (!slab) {
				pthread_mutex_unlock(&slab_lock);
				return NULL;
			}
			*(unsigned int *)slab = i;
			c->next = slab + obj_offset(size);
			c->end = slab + SLAB_SIZE;
		}
		p = c->next;
		c->next += size;
	}
	pthread_mutex_unlock(&slab_lock);
out:
	if (zero)
		memset(p, 0, size);
	return p;
}

void pcpu_shim_kfree(const void *p)
{
	char *slab = (char *)((uintptr_t)p & ~(SLAB_SIZE - 1));
	unsigned int i;

	if (!p)
		return;
	i = *(unsigned int *)slab;
	if (i == NR_CLASSES) {
		free(slab);
		return;
	}
	pthread_mutex_lock(&slab_lock);
	*(void **)p = classes[i].free;
	classes[i].free = (void *)p;
	pthread_mutex_unlock(&slab_lock);
}
