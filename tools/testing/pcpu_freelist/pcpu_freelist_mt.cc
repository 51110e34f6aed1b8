// SPDX-License-Identifier: GPL-2.0-only
//
// Multi-threaded benchmark for kernel/bpf/percpu_freelist.c: one thread per
// online CPU, pinned, each playing the kernel CPU of its index.  Unlike the
// single-threaded Google Benchmark, this sees what the caches do when CPUs
// write memory that other CPUs read or write.  One version of the kernel
// file per binary; mt_run.py runs the versions interleaved and compares.
//
//   pcpu_freelist_mt [-t MILLISECONDS] WORKLOAD POSSIBLE_CPUS [NODES]
//
// Prints one line: "ns=<ns per op> ops=<ops> threads=<n> rt=<0|1>", where an
// op is a pop+push pair (own-*, two-lists), a pop (exhausted), or a node
// taken on one CPU and pushed back on the other (handoff).

#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include "percpu_freelist.h"
}

namespace {

enum class Workload { OwnFull, OwnFlip, TwoLists, Handoff, Exhausted };

struct Workloads {
	const char *name;
	Workload w;
	unsigned int nodes;	// default nodes (per CPU, or in flight)
	const char *doc;
} const kWorkloads[] = {
	{ "own-full", Workload::OwnFull, 64,
	  "each CPU pops and pushes back on its own head, never empty" },
	{ "own-flip", Workload::OwnFlip, 1,
	  "the same with 1 node: the head flips empty/non-empty each pair" },
	{ "two-lists", Workload::TwoLists, 1,
	  "each CPU flips its own head of its own freelist (two maps)" },
	{ "handoff", Workload::Handoff, 8,
	  "CPU 0 pushes, CPU 1 pops (its own head empty) and hands back" },
	{ "exhausted", Workload::Exhausted, 0,
	  "every CPU pops from a freelist with no nodes" },
};

[[noreturn]] void die(const std::string &msg)
{
	fprintf(stderr, "pcpu_freelist_mt: %s\n", msg.c_str());
	exit(2);
}

double now_ns()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

// A node on a cache line of its own, as a map element of 64 bytes or more
// would be: two CPUs' nodes never share a line.
struct alignas(64) Node {
	struct pcpu_freelist_node n;
};

// A freelist and its nodes, allocated as the kernel allocates a map's: the
// struct pcpu_freelist inside a larger kmalloc'ed object (struct bpf_htab).
struct List {
	explicit List(unsigned int nodes) : nodes(nodes)
	{
		map = (struct pcpu_freelist *)kzalloc(512, GFP_KERNEL);
		if (!map || pcpu_freelist_init(map))
			die("pcpu_freelist_init failed");
	}
	~List()
	{
		pcpu_freelist_destroy(map);
		kfree(map);
	}
	struct pcpu_freelist *map;
	std::vector<Node> nodes;
};

struct Run {
	Workload w;
	unsigned int nthreads;
	double deadline = 0;
	std::atomic<unsigned int> ready{0};
	std::atomic<bool> go{false};
	std::vector<unsigned long> ops;
	std::vector<double> elapsed;
	std::vector<int> cpus;
	List *lists[2] = {};
	// handoff: CPU 1 hands nodes back to CPU 0 through this ring
	static constexpr unsigned int kRing = 1024;
	struct pcpu_freelist_node *ring[kRing] = {};
	alignas(64) std::atomic<unsigned long> ring_head{0};
	alignas(64) std::atomic<unsigned long> ring_tail{0};
	bool rt = false;
};

void must_pop_push(struct pcpu_freelist *fl)
{
	struct pcpu_freelist_node *n = pcpu_freelist_pop(fl);

	if (!n)
		die("pop on a CPU's own non-empty head returned NULL");
	pcpu_freelist_push(fl, n);
}

// The loop of thread t; checks the clock every 256 operations.
unsigned long work(Run &r, unsigned int t)
{
	struct pcpu_freelist *fl = r.lists[r.w == Workload::TwoLists ? t : 0]->map;
	unsigned long ops = 0;
	double end = r.deadline;

	for (;;) {
		for (int i = 0; i < 256; i++) {
			switch (r.w) {
			case Workload::OwnFull:
			case Workload::OwnFlip:
			case Workload::TwoLists:
				must_pop_push(fl);
				ops++;
				break;
			case Workload::Exhausted:
				if (pcpu_freelist_pop(fl))
					die("pop on an empty freelist returned a node");
				ops++;
				break;
			case Workload::Handoff:
				if (t == 1) {
					struct pcpu_freelist_node *n = pcpu_freelist_pop(fl);

					if (n) {
						unsigned long h = r.ring_head.load(std::memory_order_relaxed);

						r.ring[h % Run::kRing] = n;
						r.ring_head.store(h + 1, std::memory_order_release);
						ops++;
					}
				} else {
					unsigned long tl = r.ring_tail.load(std::memory_order_relaxed);

					if (tl != r.ring_head.load(std::memory_order_acquire)) {
						pcpu_freelist_push(fl, r.ring[tl % Run::kRing]);
						r.ring_tail.store(tl + 1, std::memory_order_release);
					}
				}
				break;
			}
		}
		if (now_ns() >= end)
			return ops;
	}
}

void thread_main(Run &r, unsigned int t)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(r.cpus[t], &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		die("cannot pin a thread to CPU " + std::to_string(r.cpus[t]));
	if (r.rt) {
		struct sched_param sp = {};

		sp.sched_priority = 1;
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	}
	pcpu_shim_cpu = t;
	pcpu_shim_in_nmi = 0;
	// Set up on the CPU that owns the nodes, as a kernel CPU would.
	if (r.w == Workload::OwnFull || r.w == Workload::OwnFlip ||
	    r.w == Workload::TwoLists || (r.w == Workload::Handoff && t == 0)) {
		List *l = r.lists[r.w == Workload::TwoLists ? t : 0];
		size_t begin = 0, end = l->nodes.size();

		if (r.w == Workload::OwnFull || r.w == Workload::OwnFlip) {
			begin = end / r.nthreads * t;
			end = begin + end / r.nthreads;
		}
		for (size_t i = begin; i < end; i++)
			pcpu_freelist_push(l->map, &l->nodes[i].n);
	}
	r.ready++;
	while (!r.go.load(std::memory_order_acquire))
		;
	double start = now_ns();

	r.ops[t] = work(r, t);
	r.elapsed[t] = now_ns() - start;
}

// Can this process make its threads SCHED_FIFO?
bool rt_available()
{
	struct sched_param sp = {};
	int policy;

	sp.sched_priority = 1;
	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		return false;
	pthread_getschedparam(pthread_self(), &policy, &sp);
	sp.sched_priority = 0;
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
	return policy == SCHED_FIFO;
}

unsigned long parse(const char *s, const char *what, unsigned long lo,
		    unsigned long hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || v < lo || v > hi)
		die(std::string("bad ") + what + " '" + s + "' (" +
		    std::to_string(lo) + ".." + std::to_string(hi) + ")");
	return v;
}

void usage(FILE *f)
{
	fprintf(f, "usage: pcpu_freelist_mt [-t MILLISECONDS] WORKLOAD POSSIBLE_CPUS [NODES]\n"
		   "  -t  how long the threads run (default 200)\n");
	for (const auto &w : kWorkloads)
		fprintf(f, "  %-10s %s (default nodes %u)\n", w.name, w.doc,
			w.nodes);
}

} // namespace

int main(int argc, char **argv)
{
	unsigned long ms = 200;
	int opt;

	while ((opt = getopt(argc, argv, "t:h")) != -1) {
		switch (opt) {
		case 't':
			ms = parse(optarg, "milliseconds", 1, 10000);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 3 || argc > 4) {
		usage(stderr);
		return 2;
	}
	const Workloads *wl = nullptr;

	for (const auto &w : kWorkloads)
		if (!strcmp(argv[1], w.name))
			wl = &w;
	if (!wl)
		die(std::string("unknown workload '") + argv[1] + "' (-h lists them)");

	Run r;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity failed");
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			r.cpus.push_back(c);
	r.w = wl->w;
	r.nthreads = r.cpus.size();
	unsigned int possible = parse(argv[2], "possible CPU count", 1, NR_CPUS);
	unsigned int nodes = argc > 3 ? parse(argv[3], "node count", 1, 1 << 20) :
					wl->nodes;

	if (r.w == Workload::Exhausted) {
		nodes = 0;
		// one thread per possible CPU at most (1 possible: 1 thread)
		r.nthreads = std::min<unsigned int>(r.nthreads, possible);
	}
	if (r.w == Workload::Handoff || r.w == Workload::TwoLists)
		r.nthreads = 2;
	if (r.w == Workload::Handoff && nodes > Run::kRing)
		die("handoff takes at most " + std::to_string(Run::kRing) + " nodes");
	if (r.cpus.size() < 2)
		die("needs at least 2 online CPUs");
	if (possible < r.nthreads)
		die("needs at least as many possible CPUs as threads (" +
		    std::to_string(r.nthreads) + ")");
	pcpu_shim_set_nr_cpus(possible);
	r.rt = rt_available();
	r.ops.assign(r.nthreads, 0);
	r.elapsed.assign(r.nthreads, 0);
	// own-*: NODES per CPU; handoff: NODES in flight; two-lists: one list each.
	unsigned int total = r.w == Workload::OwnFull || r.w == Workload::OwnFlip ?
				     nodes * r.nthreads : nodes;
	List a(total);
	std::unique_ptr<List> b;

	r.lists[0] = &a;
	if (r.w == Workload::TwoLists) {
		// Back to back, as two maps created one after the other.
		b.reset(new List(nodes));
		r.lists[1] = b.get();
	}
	if (r.rt) {
		// Above the workers, so that it can start and stop them.
		struct sched_param sp = {};

		sp.sched_priority = 2;
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	}

	std::vector<std::thread> threads;

	for (unsigned int t = 0; t < r.nthreads; t++)
		threads.emplace_back(thread_main, std::ref(r), t);
	while (r.ready.load() < r.nthreads)
		std::this_thread::sleep_for(std::chrono::microseconds(100));
	r.deadline = now_ns() + ms * 1e6;
	r.go.store(true, std::memory_order_release);
	for (auto &th : threads)
		th.join();

	// handoff: the consumer's ops over the elapsed time; otherwise the mean
	// over threads of each thread's time per op.
	double ns = 0;
	unsigned long ops = 0;

	if (r.w == Workload::Handoff) {
		ops = r.ops[1];
		ns = ops ? r.elapsed[1] / ops : 0;
	} else {
		for (unsigned int t = 0; t < r.nthreads; t++) {
			ops += r.ops[t];
			ns += r.elapsed[t] / r.ops[t] / r.nthreads;
		}
	}
	if (!ops)
		die("no operation completed");
	printf("ns=%.2f ops=%lu threads=%u rt=%d\n", ns, ops, r.nthreads, r.rt);
	return 0;
}
