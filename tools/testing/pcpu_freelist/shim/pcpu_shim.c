// SPDX-License-Identifier: GPL-2.0-only
/* Definitions behind shim/linux/pcpu_shim.h. */
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <linux/pcpu_shim.h>

unsigned int nr_cpu_ids = 1;
struct cpumask pcpu_shim_possible = { .bits = { 1UL } };
__thread int pcpu_shim_cpu;
__thread int pcpu_shim_in_nmi;
__thread struct pcpu_shim_stats pcpu_shim_stats;

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
