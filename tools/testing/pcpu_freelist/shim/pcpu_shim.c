// SPDX-License-Identifier: GPL-2.0-only
/* Definitions behind shim/linux/pcpu_shim.h. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <linux/pcpu_shim.h>

unsigned int nr_cpu_ids = 1;
struct cpumask pcpu_shim_possible = { .bits = { 1UL } };
__thread int pcpu_shim_cpu;
__thread int pcpu_shim_in_nmi;
__thread struct pcpu_shim_stats pcpu_shim_stats;
__thread void (*pcpu_shim_after_unlock)(raw_spinlock_t *l);

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

void *pcpu_shim_alloc(size_t size)
{
	void *p;

	if (size > PCPU_SHIM_UNIT)
		return NULL;
	p = aligned_alloc(PCPU_SHIM_UNIT, nr_cpu_ids * PCPU_SHIM_UNIT);
	if (p)
		memset(p, 0, nr_cpu_ids * PCPU_SHIM_UNIT);
	return p;
}

/*
 * Contended path.  Userspace cannot disable preemption, so a lock holder may
 * be descheduled: yield now and then instead of spinning a whole time slice.
 * A lock not acquired within 10 s is a deadlock (a missing unlock): abort.
 */
void pcpu_shim_lock_slow(raw_spinlock_t *l)
{
	unsigned long spins = 0;
	time_t start = time(NULL);

	do {
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED)) {
			if (++spins % 128) {
				cpu_relax();
				continue;
			}
			sched_yield();
			if (spins % (1UL << 20) == 0 &&
			    time(NULL) - start > 10) {
				fprintf(stderr, "pcpu_shim: lock %p still held after 10s: deadlock?\n",
					(void *)l);
				abort();
			}
		}
	} while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE));
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
		slab = aligned_alloc(SLAB_SIZE, ALIGN(size + 4096, SLAB_SIZE));
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
