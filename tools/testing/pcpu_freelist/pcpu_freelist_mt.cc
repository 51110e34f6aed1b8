// SPDX-License-Identifier: GPL-2.0-only
//
// Multi-threaded driver for kernel/bpf/percpu_freelist.c: one pinned thread
// per online CPU (--threads N: the first N), each playing the kernel CPU of
// its index (stormlast: see kcpu()). One version of the kernel file per binary; mt_run.py runs the
// versions interleaved and compares.
//
//   pcpu_freelist_mt [-t MS] [--threads N] SCENARIO POSSIBLE_CPUS
//   pcpu_freelist_mt calibrate            per-event costs for the model
//
// Scenarios, named after what CPUs do:
//   own         each CPU pops and pushes back on its own head (64 nodes)
//   ownflip     the same with 1 node: the head flips empty/non-empty
//   exhausted   P nodes populated and drained, then every CPU pops in vain
//   handoff     CPU 0 frees 8 nodes in flight, CPU 1 takes them (its own
//               head empty) and hands them back
//   storm:H[:P] CPU 0 pops in vain (a failing insert into a full map) and
//               pushes back what it gets; every other CPU cycles one node on
//               its own head, holding it H pause loops. With P (ns), CPU 0
//               pops once every P ns (an open loop, the offered rate of the
//               failing inserts) and its ns are those of its pops alone
//   stormlast:H the same with the stormer on CPU N-1 and the churners on
//               0..N-2: a walk from the own CPU on, as the base's pop does,
//               then reaches every churner's head after the idle heads
//               from the stormer, and the stormer's head before them from
//               a churner
//   race:H:P[:K] the race of a full preallocated hash map: K elements
//               (default 1), every CPU inserts (pops). A CPU that gets an
//               element holds it H pause loops, then deletes it (pushes it
//               onto its own head) and inserts again at once; an insert
//               whose pop returns NULL fails (-E2BIG) and is retried P ns
//               after the failed one started (P = 0: at once, a closed
//               loop). H and P are one value for every CPU or a list,
//               H0/H1/..., one per CPU
//
// Prints "ns=<ns per op> [ns_stormer=.. ns_churner=..] threads=N rt=0|1":
// an op is a pop+push pair (own, ownflip, a churner's cycle), a pop
// (exhausted, the stormer) or a hand-off. A race prints, in all and per CPU
// (cN_...): successful and failed inserts per us, ns per successful and per
// failed pop, and moves per us (successes on an element that another CPU
// freed last).
//
// Built with PCPU_SHIM_TALLY (pcpu_freelist_mtt), the native run also prints,
// per op of a storm's roles, the pops that got a node (stormer) or none
// (churner), the locks, the locks of another CPU's head, and the locks that
// had to wait; and the stormer's remote locks per microsecond (the rate at
// which the node moves between the two roles).
//
// Built with PCPU_SHIM_COUNT (pcpu_freelist_sim), the same scenarios run in
// one thread that plays N CPUs in turn, in virtual time: each step lasts what
// its counted events cost (--costs), so the interleaving follows the model.
// It prints the events per op of each role and the modelled ns per op.

#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include "percpu_freelist.h"
}
#undef min	/* tools/include's, in the way of std::min and std::max */
#undef max

namespace {

enum class Sc { Own, OwnFlip, Exhausted, Handoff, Storm, Race };

struct Config {
	Sc sc;
	unsigned int hold = 0;	// storm: pause loops a churner holds its node
	unsigned long storm_period_ns = 0;	// storm:H:P: the stormer's P
	bool robbable = false;	// simulation: a churner's pop and push are two steps
	bool stormer_last = false;	// stormlast: thread 0 plays the last CPU
	unsigned int possible;
	unsigned int threads;
	// race: per CPU (the last value repeats), and the elements
	std::vector<unsigned long> race_hold, race_period_ns;
	unsigned int race_nodes = 1;
};

[[noreturn]] void die(const std::string &msg)
{
	fprintf(stderr, "pcpu_freelist_mt: %s\n", msg.c_str());
	exit(2);
}

[[maybe_unused]] double now_ns()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
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

// "A/B/C" -> {A, B, C}
std::vector<unsigned long> parse_list(const std::string &s, const char *what,
				      unsigned long hi)
{
	std::vector<unsigned long> v;
	size_t from = 0;

	for (;;) {
		size_t to = s.find('/', from);
		std::string one = s.substr(from, to == std::string::npos ?
					   std::string::npos : to - from);

		v.push_back(parse(one.c_str(), what, 0, hi));
		if (to == std::string::npos)
			return v;
		from = to + 1;
	}
}

// race:H:P[:K]
void parse_race(const std::string &s, Config *c)
{
	std::vector<std::string> f;
	size_t from = 0, to;

	while ((to = s.find(':', from)) != std::string::npos) {
		f.push_back(s.substr(from, to - from));
		from = to + 1;
	}
	f.push_back(s.substr(from));
	if (f.size() < 3 || f.size() > 4)
		die("bad race '" + s + "' (race:H:P[:K], H and P one value or H0/H1/...)");
	c->race_hold = parse_list(f[1], "hold", 1000000);
	c->race_period_ns = parse_list(f[2], "period (ns)", 1000000000);
	if (f.size() == 4)
		c->race_nodes = parse(f[3].c_str(), "element count", 1, 1 << 20);
}

Sc parse_scenario(const std::string &s, Config *c)
{
	unsigned int *hold = &c->hold;
	bool *last = &c->stormer_last;

	if (s == "own")
		return Sc::Own;
	if (s == "ownflip")
		return Sc::OwnFlip;
	if (s == "exhausted")
		return Sc::Exhausted;
	if (s == "handoff")
		return Sc::Handoff;
	if (s.rfind("storm:", 0) == 0) {
		std::string hp = s.substr(6);
		size_t colon = hp.find(':');

		if (colon != std::string::npos) {
			c->storm_period_ns = parse(hp.c_str() + colon + 1,
						   "period (ns)", 1, 1000000000);
			hp.resize(colon);
		}
		*hold = parse(hp.c_str(), "hold", 0, 1000000);
		return Sc::Storm;
	}
	if (s.rfind("stormlast:", 0) == 0) {
		*hold = parse(s.c_str() + 10, "hold", 0, 1000000);
		*last = true;
		return Sc::Storm;
	}
	if (s.rfind("race:", 0) == 0) {
		parse_race(s, c);
		return Sc::Race;
	}
	die("unknown scenario '" + s +
	    "' (own, ownflip, exhausted, handoff, storm:H[:P], stormlast:H, race:H:P[:K])");
}

// The kernel CPU that thread (or simulated CPU) t plays. Roles go by t
// (0: the stormer); stormlast moves the stormer to the last CPU.
unsigned int kcpu(const Config &c, unsigned int t)
{
	return c.stormer_last ? (t + c.threads - 1) % c.threads : t;
}

// A node on a cache line of its own, as a map element of 64 bytes or more.
struct alignas(64) Node {
	struct pcpu_freelist_node n;
	int freer;	// race: the CPU that freed it last (the element's data)
};

// The freelist inside a larger kmalloc'ed object, as in struct bpf_htab.
struct List {
	explicit List(size_t n) : nodes(n)
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

void pause_loops(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		cpu_relax();
}

// Nodes per scenario, and who owns which at the start.
size_t nodes_of(const Config &c)
{
	switch (c.sc) {
	case Sc::Own:
		return 64 * c.threads;
	case Sc::OwnFlip:
		return c.threads;
	case Sc::Exhausted:
		return c.possible;
	case Sc::Handoff:
		return 8;
	case Sc::Storm:
		return c.threads - 1;
	case Sc::Race:
		return c.race_nodes;
	}
	return 0;
}

// Setup on CPU t, as a kernel CPU would free its elements.
void setup_cpu(const Config &c, List &l, unsigned int t)
{
	size_t per = 0, first = 0;

	switch (c.sc) {
	case Sc::Own:
		per = 64, first = 64 * t;
		break;
	case Sc::OwnFlip:
		per = 1, first = t;
		break;
	case Sc::Handoff:
		per = t == 0 ? 8 : 0;
		break;
	case Sc::Storm:
		per = t ? 1 : 0, first = t ? t - 1 : 0;
		break;
	case Sc::Exhausted:
		break;
	case Sc::Race:
		// element i is freed by CPU i % N
		for (size_t i = t; i < l.nodes.size(); i += c.threads) {
			l.nodes[i].freer = t;
			pcpu_freelist_push(l.map, &l.nodes[i].n);
		}
		break;
	}
	for (size_t i = first; i < first + per; i++)
		pcpu_freelist_push(l.map, &l.nodes[i].n);
}

// The hand-off ring: CPU 1 hands nodes back to CPU 0.
struct Ring {
	static constexpr unsigned int kSize = 64;
	struct pcpu_freelist_node *slot[kSize] = {};
	alignas(64) std::atomic<unsigned long> head{0};
	alignas(64) std::atomic<unsigned long> tail{0};
};

// PCPU_SHIM_TALLY: pops of this thread that returned a node.
[[maybe_unused]] thread_local unsigned long pops_got;

// One step of CPU t; returns the ops it completed (0 or 1). Natively a
// churner's cycle is pop, hold (spun), push; in the simulation one step
// pushes the held node and pops at once, and the hold is virtual time.
struct Cpu {
	struct pcpu_freelist_node *held = nullptr;
	bool popped = false;	// storm churner: between pop and push
};

unsigned int step(const Config &c, List &l, Ring &ring, Cpu &cpu,
		  unsigned int t, bool native)
{
	struct pcpu_freelist *fl = l.map;
	struct pcpu_freelist_node *n;
	unsigned int done;

	switch (c.sc) {
	case Sc::Own:
	case Sc::OwnFlip:
		n = pcpu_freelist_pop(fl);
		if (!n)
			die("pop on a CPU's own non-empty head returned NULL");
		pcpu_freelist_push(fl, n);
		return 1;
	case Sc::Exhausted:
		if (pcpu_freelist_pop(fl))
			die("pop on an exhausted freelist returned a node");
		return 1;
	case Sc::Handoff:
		if (t == 1) {
			n = pcpu_freelist_pop(fl);
			if (!n)
				return 0;
			unsigned long h = ring.head.load(std::memory_order_relaxed);

			ring.slot[h % Ring::kSize] = n;
			ring.head.store(h + 1, std::memory_order_release);
			return 1;
		}
		{
			unsigned long tl = ring.tail.load(std::memory_order_relaxed);

			if (tl == ring.head.load(std::memory_order_acquire))
				return 0;
			pcpu_freelist_push(fl, ring.slot[tl % Ring::kSize]);
			ring.tail.store(tl + 1, std::memory_order_release);
		}
		return 0;
	case Sc::Race:
		die("race runs natively only");
	case Sc::Storm:
		if (t == 0) {
			n = pcpu_freelist_pop(fl);
			if (n) {
				pcpu_freelist_push(fl, n);
#ifdef PCPU_SHIM_TALLY
				pops_got++;
#endif
			}
			return 1;
		}
		if (!native && c.robbable) {
			// --robbable: the pop, then the hold (virtual time), then
			// the push are steps of their own, as natively: the
			// stormer can take the node while it is on the head
			if (!cpu.popped) {
				cpu.held = pcpu_freelist_pop(fl);
				cpu.popped = true;
				return 0;
			}
			if (cpu.held)
				pcpu_freelist_push(fl, cpu.held);
			cpu.held = nullptr;
			cpu.popped = false;
			return 1;
		}
		if (!native) {
			// a step: free the held node and take one at once (the
			// delete and re-insert of a key); the hold is the step's
			// virtual time
			if (cpu.popped && cpu.held)
				pcpu_freelist_push(fl, cpu.held);
			cpu.held = pcpu_freelist_pop(fl);
			done = cpu.popped;
			cpu.popped = true;
			return done;
		}
		if (!cpu.popped) {
			cpu.held = pcpu_freelist_pop(fl);
			cpu.popped = true;
#ifdef PCPU_SHIM_TALLY
			pops_got += cpu.held != nullptr;
#endif
			pause_loops(c.hold);
		}
		if (cpu.held)
			pcpu_freelist_push(fl, cpu.held);
		cpu.held = nullptr;
		cpu.popped = false;
		return 1;
	}
	return 0;
}

#ifndef PCPU_SHIM_COUNT

// The race's clock: the TSC where there is one (a read costs ~10 ns against
// ~20 for clock_gettime(), and a failed pop of the series costs ~10 ns).
uint64_t ticks()
{
#if defined(__x86_64__) || defined(__i386__)
	return __rdtsc();
#else
	return (uint64_t)now_ns();
#endif
}

// Ticks per ns, measured against CLOCK_MONOTONIC over 20 ms.
double ticks_per_ns()
{
	double t0 = now_ns();
	uint64_t k0 = ticks();

	std::this_thread::sleep_for(std::chrono::milliseconds(20));
	return (ticks() - k0) / (now_ns() - t0);
}

// What one CPU of a race did in the timed loop.
struct RaceOut {
	unsigned long ok = 0, fail = 0, moves = 0;
	uint64_t ticks_ok = 0, ticks_fail = 0;
};

// A CPU of the race: insert (pop); on success hold H loops and delete (push
// onto the own head); on failure wait until P after the failed insert began.
RaceOut race(const Config &c, List &l, unsigned int t, uint64_t end,
	     double tpn)
{
	unsigned long hold = c.race_hold[std::min<size_t>(t, c.race_hold.size() - 1)];
	unsigned long p = c.race_period_ns[std::min<size_t>(t, c.race_period_ns.size() - 1)];
	uint64_t period = (uint64_t)(p * tpn);
	int me = kcpu(c, t);
	RaceOut o;

	for (;;) {
		uint64_t t0 = ticks();
		struct pcpu_freelist_node *n;

		if (t0 >= end)
			return o;
		n = pcpu_freelist_pop(l.map);
		uint64_t t1 = ticks();

		if (!n) {
			o.fail++;
			o.ticks_fail += t1 - t0;
			while (period && ticks() - t0 < period)
				cpu_relax();
			continue;
		}
		Node *e = reinterpret_cast<Node *>(n);	// n is its first member

		o.ok++;
		o.ticks_ok += t1 - t0;
		if (e->freer != me)
			o.moves++;
		pause_loops(hold);
		e->freer = me;
		pcpu_freelist_push(l.map, n);
	}
}

// storm:H:P's CPU 0: a pop every P ns, a node it gets pushed back at once;
// only the pops are timed (ok: pops that got a node).
RaceOut paced_stormer(const Config &c, List &l, uint64_t end, double tpn)
{
	uint64_t period = (uint64_t)(c.storm_period_ns * tpn);
	RaceOut o;

	for (;;) {
		uint64_t t0 = ticks();
		struct pcpu_freelist_node *n;

		if (t0 >= end)
			return o;
		n = pcpu_freelist_pop(l.map);
		uint64_t t1 = ticks();

		if (n) {
			o.ok++;
			o.ticks_ok += t1 - t0;
			pcpu_freelist_push(l.map, n);
		} else {
			o.fail++;
			o.ticks_fail += t1 - t0;
		}
		while (ticks() - t0 < period)
			cpu_relax();
	}
}

struct Run {
	Config c;
	std::vector<int> cpus;
	List *list = nullptr;
	Ring ring;
	std::atomic<unsigned int> ready{0};
	std::atomic<bool> go{false};
	std::atomic<bool> drained{false};
	double deadline = 0;
	std::vector<unsigned long> ops;
	std::vector<double> elapsed;
	std::vector<struct pcpu_shim_stats> stats;	// of the timed loop
	std::vector<unsigned long> got;
	std::vector<RaceOut> race;
	double tpn = 1;	// race: ticks per ns
	bool rt = false;
};

void thread_main(Run &r, unsigned int t)
{
	cpu_set_t set;
	Cpu cpu;

	CPU_ZERO(&set);
	CPU_SET(r.cpus[t], &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		die("cannot pin a thread to CPU " + std::to_string(r.cpus[t]));
	if (r.rt) {
		struct sched_param sp = {};

		sp.sched_priority = 1;
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	}
	pcpu_shim_cpu = kcpu(r.c, t);
	pcpu_shim_in_nmi = 0;
	setup_cpu(r.c, *r.list, t);
	r.ready++;
	// exhausted: CPU 0 drains what populate spread over every head
	if (r.c.sc == Sc::Exhausted && t == 0) {
		while (r.ready.load() < r.c.threads)
			;
		while (pcpu_freelist_pop(r.list->map))
			;
		r.drained = true;
	}
	while (!r.go.load(std::memory_order_acquire))
		;
	double start = now_ns(), end = r.deadline;
	unsigned long ops = 0;
	struct pcpu_shim_stats before = pcpu_shim_stats;
	unsigned long got_before = pops_got;

	if (r.c.sc == Sc::Race) {
		uint64_t k = ticks();

		r.race[t] = race(r.c, *r.list, t,
				 k + (uint64_t)((end - now_ns()) * r.tpn), r.tpn);
		ops = r.race[t].ok + r.race[t].fail;
	} else if (r.c.sc == Sc::Storm && r.c.storm_period_ns && t == 0) {
		r.race[0] = paced_stormer(r.c, *r.list,
					  ticks() + (uint64_t)((end - now_ns()) * r.tpn),
					  r.tpn);
		ops = r.race[0].ok + r.race[0].fail;
	} else {
		for (;;) {
			for (int i = 0; i < 64; i++)
				ops += step(r.c, *r.list, r.ring, cpu, t, true);
			if (now_ns() >= end)
				break;
		}
	}
	r.ops[t] = ops;
	r.elapsed[t] = now_ns() - start;
	r.stats[t] = pcpu_shim_stats;
	r.stats[t].lock_acquired -= before.lock_acquired;
	r.stats[t].remote_lock -= before.remote_lock;
	r.stats[t].contended -= before.contended;
	r.stats[t].shared_rmw -= before.shared_rmw;
	r.got[t] = pops_got - got_before;
}

// A race's fields: in all, then per CPU (cN_). Rates are per us of each
// CPU's own timed loop; ns are per pop.
void print_race(const Run &r)
{
	RaceOut all;
	double us = 0;

	auto fields = [&](const char *pre, const RaceOut &o, double u) {
		printf("%sok_per_us=%.4f %sfail_per_us=%.4f %sns_ok=%.2f "
		       "%sns_fail=%.2f %smoves_per_us=%.4f ", pre, o.ok / u, pre,
		       o.fail / u, pre, o.ok ? o.ticks_ok / r.tpn / o.ok : 0.0,
		       pre, o.fail ? o.ticks_fail / r.tpn / o.fail : 0.0, pre,
		       o.moves / u);
	};
	for (unsigned int t = 0; t < r.c.threads; t++) {
		const RaceOut &o = r.race[t];

		all.ok += o.ok, all.fail += o.fail, all.moves += o.moves;
		all.ticks_ok += o.ticks_ok, all.ticks_fail += o.ticks_fail;
		us += r.elapsed[t] / 1e3 / r.c.threads;
	}
	fields("", all, us);
	for (unsigned int t = 0; t < r.c.threads; t++)
		fields(("c" + std::to_string(t) + "_").c_str(), r.race[t],
		       r.elapsed[t] / 1e3);
#ifdef PCPU_SHIM_TALLY
	// per insert (pop) of each CPU: locks, locks of another CPU's head,
	// locks that waited, atomic RMWs of the hint
	for (unsigned int t = 0; t < r.c.threads; t++) {
		double o = r.race[t].ok + r.race[t].fail;
		const struct pcpu_shim_stats &st = r.stats[t];

		printf("c%u_lock=%.4f c%u_rlock=%.4f c%u_wait=%.4f c%u_hintrmw=%.4f ",
		       t, st.lock_acquired / o, t, st.remote_lock / o, t,
		       st.contended / o, t, st.shared_rmw / o);
	}
#endif
	printf("threads=%u rt=%d\n", r.c.threads, r.rt);
}

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

int run_native(Config c, std::vector<int> cpus, unsigned long ms)
{
	Run r;

	r.c = c;
	r.cpus = cpus;
	pcpu_shim_set_nr_cpus(c.possible);
	r.rt = rt_available();
	r.ops.assign(c.threads, 0);
	r.elapsed.assign(c.threads, 0);
	r.stats.assign(c.threads, pcpu_shim_stats);
	r.got.assign(c.threads, 0);
	r.race.assign(c.threads, RaceOut());
	if (c.sc == Sc::Race || c.storm_period_ns)
		r.tpn = ticks_per_ns();

	List list(nodes_of(c));

	r.list = &list;
	if (c.sc == Sc::Exhausted)
		pcpu_freelist_populate(list.map, list.nodes.data(), sizeof(Node),
				       list.nodes.size());
	if (r.rt) {
		struct sched_param sp = {};

		sp.sched_priority = 2;
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	}
	std::vector<std::thread> threads;

	for (unsigned int t = 0; t < c.threads; t++)
		threads.emplace_back(thread_main, std::ref(r), t);
	while (r.ready.load() < c.threads ||
	       (c.sc == Sc::Exhausted && !r.drained.load()))
		std::this_thread::sleep_for(std::chrono::microseconds(100));
	r.deadline = now_ns() + ms * 1e6;
	r.go.store(true, std::memory_order_release);
	// The tick: jiffies at HZ=1000 while the workers run.
	while (now_ns() < r.deadline) {
		std::this_thread::sleep_for(std::chrono::milliseconds(1));
		__atomic_fetch_add(&pcpu_shim_jiffies, 1, __ATOMIC_RELAXED);
	}
	for (auto &th : threads)
		th.join();

	auto ns_of = [&](unsigned int from, unsigned int to) {
		double ns = 0;

		for (unsigned int t = from; t < to; t++) {
			if (!r.ops[t])
				die("CPU " + std::to_string(t) + " completed no operation");
			ns += r.elapsed[t] / r.ops[t] / (to - from);
		}
		return ns;
	};
	if (c.sc == Sc::Race) {
		print_race(r);
		return 0;
	}
	if (c.sc == Sc::Handoff)
		printf("ns=%.2f", ns_of(1, 2));
	else
		printf("ns=%.2f", ns_of(0, c.threads));
	if (c.sc == Sc::Storm && c.storm_period_ns) {
		const RaceOut &o = r.race[0];

		printf(" ns_stormer=%.2f ns_churner=%.2f got_per_us=%.4f",
		       (o.ticks_ok + o.ticks_fail) / r.tpn / (o.ok + o.fail),
		       ns_of(1, c.threads), o.ok / (r.elapsed[0] / 1e3));
	} else if (c.sc == Sc::Storm) {
		printf(" ns_stormer=%.2f ns_churner=%.2f", ns_of(0, 1),
		       ns_of(1, c.threads));
	}
#ifdef PCPU_SHIM_TALLY
	if (c.sc == Sc::Storm) {
		// per op of each role: pops with a node, locks, remote, waited
		for (unsigned int role = 0; role < 2; role++) {
			unsigned int from = role ? 1 : 0, to = role ? c.threads : 1;
			double o = 0, got = 0, lk = 0, rl = 0, ct = 0, rmw = 0;

			for (unsigned int t = from; t < to; t++) {
				o += r.ops[t];
				got += r.got[t];
				lk += r.stats[t].lock_acquired;
				rl += r.stats[t].remote_lock;
				ct += r.stats[t].contended;
				rmw += r.stats[t].shared_rmw;
			}
			const char *n = role ? "churner" : "stormer";

			printf(" %s_got=%.4f %s_lock=%.4f %s_rlock=%.4f %s_wait=%.4f"
			       " %s_hintrmw=%.4f", n, got / o, n, lk / o, n, rl / o,
			       n, ct / o, n, rmw / o);
		}
		printf(" moves_per_us=%.3f",
		       r.stats[0].remote_lock / (r.elapsed[0] / 1e3));
	}
#endif
	printf(" threads=%u rt=%d\n", c.threads, r.rt);
	return 0;
}

// Per-event costs, measured here, for the model (mt_model.py).
double ping_pong(bool rmw)
{
	alignas(64) static std::atomic<long> line{0};
	const long rounds = 200000;
	double t0 = 0, t1 = 0;
	auto pin = [](int cpu) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	};
	line = 0;
	std::thread other([&] {
		pin(1);
		for (long i = 1; i < 2 * rounds; i += 2) {
			while (line.load(std::memory_order_acquire) != i)
				;
			if (rmw)
				line.fetch_add(1);
			else
				line.store(i + 1, std::memory_order_release);
		}
	});
	pin(0);
	t0 = now_ns();
	for (long i = 0; i < 2 * rounds; i += 2) {
		while (line.load(std::memory_order_acquire) != i)
			;
		if (rmw)
			line.fetch_add(1);
		else
			line.store(i + 1, std::memory_order_release);
	}
	t1 = now_ns();
	other.join();
	// a round is two transfers, each a miss and a write (RMW)
	return (t1 - t0) / rounds / 2;
}

int calibrate()
{
	const int n = 2000000;
	double t;

	pcpu_shim_set_nr_cpus(64);
	List l(64);

	// an uncontended lock and unlock of a head, and a pop+push on the own head
	static raw_spinlock_t lock_word;
	raw_spinlock_t *lock = &lock_word;

	t = now_ns();
	for (int i = 0; i < n; i++) {
		raw_spin_lock(lock);
		raw_spin_unlock(lock);
	}
	double c_lock = (now_ns() - t) / n;

	pcpu_freelist_push(l.map, &l.nodes[0].n);
	t = now_ns();
	for (int i = 0; i < n; i++)
		pcpu_freelist_push(l.map, pcpu_freelist_pop(l.map));
	double c_pair = (now_ns() - t) / n;

	// a read of a line nobody else wrote, one per page (64 heads, per-CPU)
	std::vector<char> pages(1024 * 4096);
	volatile char sink = 0;

	t = now_ns();
	for (int i = 0; i < n / 64; i++)
		for (int p = 0; p < 1024; p += 16)
			sink = sink + pages[p * 4096];
	double c_clean = (now_ns() - t) / n;

	t = now_ns();
	for (int i = 0; i < n; i++)
		cpu_relax();
	double c_pause = (now_ns() - t) / n;

	double c_miss = ping_pong(false);
	double c_miss_rmw = ping_pong(true);

	printf("c_lock=%.2f c_pair=%.2f c_clean=%.2f c_pause=%.2f "
	       "c_miss_read=%.2f c_miss_rmw=%.2f\n",
	       c_lock, c_pair, c_clean, c_pause, c_miss, c_miss_rmw);
	return 0;
}

#else // PCPU_SHIM_COUNT: the simulation

struct Costs {
	double lock = 0, pair = 0, clean = 0, pause = 0, miss_read = 0,
	       miss_rmw = 0;
};

double cost_of(const Costs &k, const struct pcpu_shim_stats &d)
{
	return d.lock_acquired * k.lock + d.remote_read * k.clean +
	       d.miss_read * k.miss_read + d.miss_rmw * k.miss_rmw +
	       d.delay_ns;
}

struct pcpu_shim_stats diff(const struct pcpu_shim_stats &a,
			    const struct pcpu_shim_stats &b)
{
	struct pcpu_shim_stats d;

	d.lock_acquired = a.lock_acquired - b.lock_acquired;
	d.trylock_failed = a.trylock_failed - b.trylock_failed;
	d.shared_rmw = a.shared_rmw - b.shared_rmw;
	d.remote_lock = a.remote_lock - b.remote_lock;
	d.clean_read = a.clean_read - b.clean_read;
	d.remote_read = a.remote_read - b.remote_read;
	d.miss_read = a.miss_read - b.miss_read;
	d.miss_rmw = a.miss_rmw - b.miss_rmw;
	d.hint_miss_read = a.hint_miss_read - b.hint_miss_read;
	d.hint_miss_rmw = a.hint_miss_rmw - b.hint_miss_rmw;
	d.delays = a.delays - b.delays;
	d.delay_ns = a.delay_ns - b.delay_ns;
	return d;
}

void add(struct pcpu_shim_stats &a, const struct pcpu_shim_stats &d)
{
	a.lock_acquired += d.lock_acquired;
	a.trylock_failed += d.trylock_failed;
	a.shared_rmw += d.shared_rmw;
	a.remote_lock += d.remote_lock;
	a.clean_read += d.clean_read;
	a.remote_read += d.remote_read;
	a.miss_read += d.miss_read;
	a.miss_rmw += d.miss_rmw;
	a.hint_miss_read += d.hint_miss_read;
	a.hint_miss_rmw += d.hint_miss_rmw;
	a.delays += d.delays;
	a.delay_ns += d.delay_ns;
}

// Runs the scenario with c.threads virtual CPUs for @vms virtual ms after
// a warm-up of @warm_ms, jiffies every @jiffy_us virtual microseconds.
int run_sim(Config c, const Costs &k, double warm_ms, double vms,
	    double jiffy_us)
{
	pcpu_shim_set_nr_cpus(c.possible);
	List list(nodes_of(c));
	Ring ring;
	std::vector<Cpu> cpus(c.threads);
	std::vector<double> clock(c.threads, 0);
	// per role (0: CPU 0 / stormer / handoff consumer side, 1: the others)
	struct pcpu_shim_stats sum[2] = {};
	unsigned long ops[2] = {}, steps[2] = {};
	double busy[2] = {}, fixed[2] = {};

	if (c.sc == Sc::Exhausted)
		pcpu_freelist_populate(list.map, list.nodes.data(), sizeof(Node),
				       list.nodes.size());
	for (unsigned int t = 0; t < c.threads; t++) {
		pcpu_shim_cpu = kcpu(c, t);
		setup_cpu(c, list, t);
	}
	if (c.sc == Sc::Exhausted) {
		pcpu_shim_cpu = 0;
		while (pcpu_freelist_pop(list.map))
			;
		// the heads stay idle for a few jiffies: pops in vain meanwhile
		for (pcpu_shim_jiffies = 0; pcpu_shim_jiffies < 4; pcpu_shim_jiffies++)
			for (unsigned int t = 0; t < c.threads; t++) {
				pcpu_shim_cpu = t;
				pcpu_freelist_pop(list.map);
			}
	}
	// An own pop+push pair costs k.pair natively: 2 locks and a read of
	// the own head are in it already.
	const double pair_fixed = std::max(0.0, k.pair - 2 * k.lock);
	const unsigned long jiffy0 = pcpu_shim_jiffies;
	for (;;) {
		unsigned int t = std::min_element(clock.begin(), clock.end()) -
				 clock.begin();
		double now = clock[t];

		if (now > (warm_ms + vms) * 1e6)
			break;
		pcpu_shim_jiffies = jiffy0 + (unsigned long)(now / (jiffy_us * 1e3));
		pcpu_shim_cpu = kcpu(c, t);
		struct pcpu_shim_stats before = pcpu_shim_stats;
		unsigned int done = step(c, list, ring, cpus[t], t, false);
		struct pcpu_shim_stats d = diff(pcpu_shim_stats, before);
		// a step: the fixed cost of a pop+push pair (half of it for a
		// churner's pop or push step), the events, and a churner's hold
		double dt = pair_fixed + cost_of(k, d);

		if (c.sc == Sc::Storm && t > 0 && c.robbable)
			dt -= pair_fixed / 2;	// half of a pair per step

		if (c.sc == Sc::Storm && t > 0 && (!c.robbable || cpus[t].popped))
			dt += c.hold * k.pause;
		if (c.sc == Sc::Handoff && !done && d.lock_acquired == 0)
			dt = std::max(dt, 5.0);	// polling an empty ring
		clock[t] += dt;
		if (now < warm_ms * 1e6)
			continue;
		unsigned int role = t == 0 ? 0 : 1;

		if (c.sc == Sc::Handoff)
			role = t == 1 ? 0 : 1;
		add(sum[role], d);
		ops[role] += done;
		steps[role]++;
		busy[role] += dt;
		fixed[role] += dt - cost_of(k, d);
	}
	const char *names[2] = { "cpu0", "others" };

	if (c.sc == Sc::Storm)
		names[0] = "stormer", names[1] = "churner";
	if (c.sc == Sc::Handoff)
		names[0] = "consumer", names[1] = "producer";
	for (int role = 0; role < 2; role++) {
		double o = ops[role];

		if (!o)
			continue;
		printf("role=%s ops=%lu ns=%.2f fixed=%.3f lock=%.3f remote_lock=%.3f "
		       "clean_read=%.3f remote_read=%.3f miss_read=%.3f miss_rmw=%.3f "
		       "hint_miss_read=%.3f hint_miss_rmw=%.3f shared_rmw=%.3f "
		       "steps=%.3f\n",
		       names[role], ops[role], busy[role] / o, fixed[role] / o,
		       sum[role].lock_acquired / o, sum[role].remote_lock / o,
		       sum[role].clean_read / o, sum[role].remote_read / o,
		       sum[role].miss_read / o,
		       sum[role].miss_rmw / o, sum[role].hint_miss_read / o,
		       sum[role].hint_miss_rmw / o, sum[role].shared_rmw / o,
		       steps[role] / o);
	}
	return 0;
}

#endif

void usage(FILE *f)
{
	fprintf(f,
		"usage: pcpu_freelist_mt [-t MS] [--threads N] SCENARIO POSSIBLE_CPUS\n"
		"       pcpu_freelist_mt calibrate\n"
		"       pcpu_freelist_sim [--costs LOCK,PAIR,CLEAN,PAUSE,MISS_READ,MISS_RMW]\n"
		"                         [--warm MS] [--vms MS] [--jiffy-us US] [--robbable]\n"
		"                         --threads N SCENARIO POSSIBLE_CPUS\n"
		"scenarios: own ownflip exhausted handoff storm:H stormlast:H race:H:P[:K]\n");
}

} // namespace

int main(int argc, char **argv)
{
	unsigned long ms = 200;
	unsigned int threads = 0;
	std::vector<std::string> args;
	std::string costs = "5,10,2,3,50,60";
	double vms = 0.4, warm_ms = 0.08, jiffy_us = 1000;
	bool robbable = false;

	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		auto val = [&]() {
			if (i + 1 >= argc)
				die("missing value of " + a);
			return argv[++i];
		};
		if (a == "-t")
			ms = parse(val(), "milliseconds", 1, 10000);
		else if (a == "--threads")
			threads = parse(val(), "thread count", 1, NR_CPUS);
		else if (a == "--costs")
			costs = val();
		else if (a == "--vms")
			vms = atof(val());
		else if (a == "--warm")
			warm_ms = atof(val());
		else if (a == "--jiffy-us")
			jiffy_us = atof(val());
		else if (a == "--robbable")
			robbable = true;
		else if (a == "-h" || a == "--help")
			return usage(stdout), 0;
		else
			args.push_back(a);
	}
#ifndef PCPU_SHIM_COUNT
	if (args.size() == 1 && args[0] == "calibrate")
		return calibrate();
#endif
	if (args.size() != 2)
		return usage(stderr), 2;

	Config c;

	c.sc = parse_scenario(args[0], &c);
	c.possible = parse(args[1].c_str(), "possible CPU count", 1, NR_CPUS);
	c.robbable = robbable;
#ifdef PCPU_SHIM_COUNT
	(void)ms;
	if (!threads)
		die("--threads N: the simulated CPUs");
	c.threads = threads;
	if (c.sc == Sc::Handoff)
		c.threads = 2;
	if (c.possible < c.threads)
		die("needs at least as many possible CPUs as threads");
	Costs k;

	if (sscanf(costs.c_str(), "%lf,%lf,%lf,%lf,%lf,%lf", &k.lock, &k.pair,
		   &k.clean, &k.pause, &k.miss_read, &k.miss_rmw) != 6)
		die("bad --costs '" + costs + "'");
	return run_sim(c, k, warm_ms, vms, jiffy_us);
#else
	(void)vms, (void)warm_ms, (void)jiffy_us;
	std::vector<int> cpus;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity failed");
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus.push_back(cpu);
	if (!threads)
		threads = cpus.size();
	if (threads > cpus.size())
		die("--threads " + std::to_string(threads) + ": only " +
		    std::to_string(cpus.size()) + " online CPUs");
	if (c.sc == Sc::Handoff)
		threads = 2;
	if (threads < 2)
		die("needs at least 2 online CPUs");
	if (c.possible < threads)
		die("needs at least as many possible CPUs as threads (" +
		    std::to_string(threads) + ")");
	c.threads = threads;
	cpus.resize(threads);
	return run_native(c, cpus, ms);
#endif
}
