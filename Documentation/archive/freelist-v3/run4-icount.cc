// instructions per pop in vain with one stale hinted head (callgrind)
extern "C" {
#include "percpu_freelist.h"
}
#include <cstdio>
#include <cstdlib>
struct alignas(64) Node { struct pcpu_freelist_node n; };
static Node nodes[2];
int main(int argc, char **argv)
{
	unsigned int ncpu = argc > 1 ? atoi(argv[1]) : 64;
	long n = argc > 2 ? atol(argv[2]) : 1000000;
	static struct pcpu_freelist fl;
	pcpu_shim_set_nr_cpus(ncpu);
	pcpu_freelist_init(&fl);
	pcpu_shim_cpu = 1;
	pcpu_freelist_push(&fl, &nodes[0].n);
	if (!pcpu_freelist_pop(&fl)) return 1;
	pcpu_shim_cpu = 0;
	long got = 0;
	for (long i = 0; i < n; i++)
		got += pcpu_freelist_pop(&fl) != nullptr;
	printf("%ld\n", got);
	return 0;
}
