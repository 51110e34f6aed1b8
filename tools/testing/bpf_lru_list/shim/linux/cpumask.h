/* SPDX-License-Identifier: GPL-2.0-only */
/* Every CPU 0..nr_cpu_ids-1 is possible: the masks need no bits. */
#ifndef LRU_SHIM_CPUMASK_H
#define LRU_SHIM_CPUMASK_H
#include "../lru_shim.h"
struct cpumask;
#define cpu_possible_mask	((const struct cpumask *)NULL)
#define num_possible_cpus()	nr_cpu_ids
#define for_each_possible_cpu(cpu) \
	for ((cpu) = 0; (cpu) < (int)nr_cpu_ids; (cpu)++)
#define cpumask_next_wrap(n, mask) \
	((unsigned int)(n) + 1 < nr_cpu_ids ? (unsigned int)(n) + 1 : 0)
#endif
