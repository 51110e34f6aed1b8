// SPDX-License-Identifier: GPL-2.0-only
//
// Instructions per operation of kernel/bpf/percpu_freelist.c, for
// valgrind --tool=callgrind: one thread plays every CPU (pcpu_shim_cpu), so
// the run is deterministic, and the plain build (no counters, no lock
// tracking) runs the file as the timing drivers do.
//
//   pcpu_freelist_count SCENARIO POSSIBLE_CPUS OPS
//
// Scenarios, as in pcpu_freelist_mt:
//   own        CPU 0 pops and pushes back on its own head (64 nodes)
//   ownflip    the same with 1 node: the head flips empty/non-empty
//   handoff    CPU 0 frees (pushes) a node, CPU 1 takes (pops) it from
//              CPU 0's head, its own head empty
//   exhausted  POSSIBLE nodes populated and drained by CPU 0, then CPU 0
//              pops in vain (each CPU that pops has found its own head
//              empty once before)
//
// An op is one pop and one push (own, ownflip, handoff) or one pop
// (exhausted). The run's setup does not depend on OPS, so the difference of
// the counts of two runs, divided by the difference of their OPS, is the
// exact count of an op (run.sh count does that, per function too).

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "percpu_freelist.h"
}

namespace
{

[[noreturn]] void die(const std::string &msg)
{
	fprintf(stderr, "pcpu_freelist_count: %s\n", msg.c_str());
	exit(2);
}

struct Node {
	struct pcpu_freelist_node n;
	char pad[56];
};

unsigned long number(const char *s, const char *what, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v < 1 || v > max)
		die(std::string("bad ") + what + " '" + s + "' (1.." + std::to_string(max) + ")");
	return v;
}

// Kept out of line so that the compiler cannot move work between the setup
// and the counted loops.
noinline void ops(char sc, struct pcpu_freelist *fl, unsigned long n)
{
	struct pcpu_freelist_node *node;
	unsigned long i;

	switch (sc) {
	case 'x': /* exhausted */
		for (i = 0; i < n; i++)
			if (pcpu_freelist_pop(fl))
				die("pop on an exhausted freelist returned a node");
		break;
	case 'h': /* handoff */
		for (i = 0; i < n; i++) {
			pcpu_shim_cpu = 1;
			node = pcpu_freelist_pop(fl);
			if (!node)
				die("hand-off: CPU 1 found no node");
			pcpu_shim_cpu = 0;
			pcpu_freelist_push(fl, node);
		}
		break;
	default: /* own, ownflip */
		for (i = 0; i < n; i++) {
			node = pcpu_freelist_pop(fl);
			if (!node)
				die("pop on CPU 0's own non-empty head returned NULL");
			pcpu_freelist_push(fl, node);
		}
	}
}

} // namespace

int main(int argc, char **argv)
{
	if (argc != 4 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: pcpu_freelist_count own|ownflip|handoff|exhausted POSSIBLE_CPUS "
			"OPS\n");
		return argc == 2 ? 0 : 2;
	}
	std::string sc = argv[1];
	if (sc != "own" && sc != "ownflip" && sc != "handoff" && sc != "exhausted")
		die("unknown scenario '" + sc + "' (own, ownflip, handoff, exhausted)");
	unsigned int possible = number(argv[2], "POSSIBLE_CPUS", NR_CPUS);
	unsigned long n = number(argv[3], "OPS", 1UL << 32);

	if ((sc == "handoff" && possible < 2) || pcpu_shim_set_nr_cpus(possible))
		die("cannot have " + std::to_string(possible) + " possible CPUs here");
	struct pcpu_freelist *fl = (struct pcpu_freelist *)kzalloc(512, GFP_KERNEL);
	if (!fl || pcpu_freelist_init(fl))
		die("pcpu_freelist_init failed");

	std::vector<Node> nodes(sc == "own" ? 64 : sc == "exhausted" ? possible : 1);
	pcpu_shim_cpu = 0;
	if (sc == "exhausted") {
		pcpu_freelist_populate(fl, nodes.data(), sizeof(Node), nodes.size());
		for (size_t i = 0; i < nodes.size(); i++)
			if (!pcpu_freelist_pop(fl))
				die("populated node missing");
		if (pcpu_freelist_pop(fl))
			die("pop on a drained freelist returned a node");
	} else {
		for (auto &nd : nodes)
			pcpu_freelist_push(fl, &nd.n);
	}
	ops(sc == "exhausted" ? 'x' : sc == "handoff" ? 'h' : 'o', fl, n);
	pcpu_freelist_destroy(fl);
	kfree(fl);
	return 0;
}
