// SPDX-License-Identifier: GPL-2.0-only
//
// Multi-threaded driver for kernel/bpf/bpf_lru_list.c: one pinned thread per
// online CPU, thread i playing kernel CPU i of POSSIBLE possible CPUs, all
// through lru_htab.h (the map as kernel/bpf/hashtab.c drives the file). One
// version of the kernel file per binary; mt_run.py interleaves versions.
//
//   bpf_lru_mt [--ms MS] [--entries N] [--online N] [--sim] [--ops N]
//              [--hot PERCENT] [--seed N] SCENARIO POSSIBLE
//
// --seed N: the random seed of a --sim run (1); another seed is another op
// sequence of the same workload, for a run-to-run spread of its counts.
//
// Scenarios, named after what CPUs do:
//   own            every online CPU pops a node and pushes it back on its
//                  own list (a 65536-entry map): the control
//   steal-remote   CPU 0 and CPU 1 hand one node back and forth (a 1-entry
//                  map): every pop finds its own list and the LRU's lists
//                  empty and the node on the other CPU's free list
//   churn-insert:PERIOD_NS
//                  CPU 1 churns its own keys (insert, delete) in a closed
//                  loop; CPU 0 inserts a new key every PERIOD_NS, an open
//                  loop: its keys leave only by eviction (--entries, 1024)
//   full           a full map (--entries, 65536): every online CPU inserts
//                  new keys, each insert evicts
//   mix            realistic churn (--entries, 65536): each op of a CPU looks
//                  up one of its flows (60%), inserts a new flow (25%) or
//                  deletes a flow (15%, half of them another CPU's); --sim:
//                  one thread plays the --online CPUs in turn, a random CPU
//                  each op, --ops ops after a warm-up (counts, not time)
//   hotcold        a hot set and a cold stream (--entries, 1024): each op of
//                  a CPU either looks up one of the hot keys all CPUs share
//                  (--hot percent of the entries, 75) and inserts it on a
//                  miss (half the ops), or
//                  inserts a key of its own never used again; --sim: one
//                  thread plays the --online CPUs, --ops ops after a warm-up
//                  of 4 x entries, with the refill's counts (the tally
//                  build), hit rate, evictions of referenced nodes and the
//                  live share of max_entries; without --sim: threads, timed
//   capacity       BPF_F_NO_COMMON_LRU: a map of --entries (rounded up to a
//                  multiple of POSSIBLE, as hashtab.c does); CPU 0 inserts
//                  twice that many keys; how many are left
//
// Prints one JSON object: per role (a CPU, or "all"), pops, fails (pops that
// returned NULL), ns_pop (rdtsc around bpf_lru_pop_free()), and per pop:
// locks, remote_locks (another CPU's list), walks (pops that ran the steal
// walk), stolen (nodes a walk returned), evictions; walk_locks per walk.
// hotcold adds the map's target_free and nr_scans, and totals (see there).

#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "lru_htab.h"

using lru_htab::Htab;
using lru_htab::PopStats;

namespace {

struct Opts {
	int ms = 200;
	long entries = -1;
	int online = 2;
	bool sim = false;
	long ops = 0;
	long hot = 75;
	long seed = 1;
	std::string scenario;
	long period_ns = 0;
	unsigned int possible = 0;
};

double tsc_per_ns;

uint64_t now_ns()
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

void calibrate()
{
	uint64_t n0 = now_ns(), t0 = lru_htab::ticks();

	while (now_ns() - n0 < 20000000)
		;
	tsc_per_ns = double(lru_htab::ticks() - t0) / double(now_ns() - n0);
}

[[noreturn]] void die(const char *msg)
{
	fprintf(stderr, "bpf_lru_mt: %s\n", msg);
	exit(2);
}

void pin(int t)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(t % (n > 0 ? n : 1), &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

// Run @fn(cpu) in one pinned thread per online CPU, all starting together.
template <typename F> void run_threads(int n, F fn)
{
	std::atomic<int> ready{0};
	std::vector<std::thread> t;

	for (int cpu = 0; cpu < n; cpu++)
		t.emplace_back([&, cpu] {
			pin(cpu);
			lru_shim_cpu = cpu;
			ready++;
			while (ready.load() < n)
				;
			fn(cpu);
		});
	for (auto &x : t)
		x.join();
}

struct Role {
	std::string name;
	PopStats st;
	uint64_t evictions = 0;
};

void print_role(const Role &r, bool last)
{
	const PopStats &s = r.st;
	double p = s.pops ? double(s.pops) : 1.0;

	printf("  \"%s\": {\"pops\": %lu, \"fails\": %lu, \"ns_pop\": %.1f, "
	       "\"locks\": %.3f, \"remote_locks\": %.3f, \"walks\": %.6f, "
	       "\"stolen\": %.6f, \"evictions\": %.4f, \"walk_locks\": %.1f}%s\n",
	       r.name.c_str(), (unsigned long)s.pops, (unsigned long)s.fails,
	       s.tsc / tsc_per_ns / p, s.locks / p, s.remote / p, s.walks / p,
	       s.stolen / p, r.evictions / p,
	       s.walks ? double(s.walk_locks) / s.walks : 0.0, last ? "" : ",");
}

void print(const Opts &o, long entries, std::vector<Role> roles,
	   const std::string &extra)
{
	Role all{"all"};

	if (roles.size() > 1) {
		for (auto &r : roles) {
			all.st.add(r.st);
			all.evictions += r.evictions;
		}
		roles.push_back(all);
	}
	printf("{\"scenario\": \"%s\", \"possible\": %u, \"entries\": %ld, "
	       "\"online\": %d, \"sim\": %d, \"ms\": %d%s,\n",
	       o.scenario.c_str(), o.possible, entries, o.online, o.sim, o.ms,
	       extra.c_str());
	for (size_t i = 0; i < roles.size(); i++)
		print_role(roles[i], i + 1 == roles.size());
	printf("}\n");
}

bool stopped(const std::atomic<bool> &stop) { return stop.load(std::memory_order_relaxed); }

// the timer: stops the threads after o.ms
void stop_after(int ms, std::atomic<bool> *stop)
{
	std::thread([ms, stop] {
		usleep(ms * 1000);
		stop->store(true);
	}).detach();
}

void own(const Opts &o)
{
	Htab h(65536, false);
	std::vector<Role> roles(o.online);
	std::atomic<bool> stop{false};
	std::atomic<int> warm{0};

	if (!h.ok())
		die("bpf_lru_init failed");
	run_threads(o.online, [&](int cpu) {
		PopStats warmup;
		struct bpf_lru_node *n = lru_htab::counted_pop(&h.lru, cpu, &warmup);

		bpf_lru_push_free(&h.lru, n);	// the first pop refilled
		if (++warm == o.online)
			stop_after(o.ms, &stop);
		while (warm.load() < o.online)
			;
		while (!stopped(stop)) {
			n = lru_htab::counted_pop(&h.lru, cpu, &roles[cpu].st);
			if (n)
				bpf_lru_push_free(&h.lru, n);
		}
	});
	for (int i = 0; i < o.online; i++)
		roles[i].name = "cpu" + std::to_string(i);
	print(o, 65536, roles, "");
}

void steal_remote(const Opts &o)
{
	Htab h(1, false);
	Role r{"all"};
	std::vector<PopStats> st(2);
	std::atomic<int> turn{0};
	std::atomic<bool> stop{false};

	if (!h.ok())
		die("bpf_lru_init failed");
	stop_after(o.ms, &stop);
	run_threads(2, [&](int cpu) {
		long i = 0;

		while (!stopped(stop)) {
			if (turn.load(std::memory_order_acquire) != cpu) {
				__builtin_ia32_pause();
				continue;
			}
			// the first two pops fill the picture: not counted
			PopStats dummy, *s = i++ < 2 ? &dummy : &st[cpu];
			struct bpf_lru_node *n = lru_htab::counted_pop(&h.lru, 0, s);

			if (n)
				bpf_lru_push_free(&h.lru, n);
			turn.store(1 - cpu, std::memory_order_release);
		}
	});
	r.st = st[0];
	r.st.add(st[1]);
	print(o, 1, {r}, "");
}

void churn_insert(const Opts &o)
{
	long entries = o.entries > 0 ? o.entries : 1024;
	Htab h(entries, false);
	std::vector<Role> roles{{"inserter"}, {"churner"}};
	std::atomic<bool> stop{false};
	uint64_t offered = 0, late = 0, t_run = 0;

	if (!h.ok())
		die("bpf_lru_init failed");
	// the map full of the inserter's keys first
	lru_shim_cpu = 0;
	for (long k = 0; k < 2 * entries; k++)
		h.update(k, &roles[0].st);
	roles[0].st = PopStats();
	lru_htab::evictions = 0;
	stop_after(o.ms, &stop);
	run_threads(2, [&](int cpu) {
		if (cpu == 1) {
			for (uint64_t i = 0; !stopped(stop); i++) {
				uint64_t key = (1ULL << 48) + i % 16;

				h.update(key, &roles[1].st);
				h.remove(key);
			}
			roles[1].evictions = lru_htab::evictions;
			return;
		}
		uint64_t period = uint64_t(o.period_ns * tsc_per_ns);
		uint64_t start = lru_htab::ticks(), next = start, t;
		uint64_t key = 2 * entries;

		lru_htab::evictions = 0;
		while (!stopped(stop)) {
			while ((t = lru_htab::ticks()) < next)
				__builtin_ia32_pause();
			if (t - next > period)
				late++;
			h.update(key++, &roles[0].st);
			offered++;
			next += period;
		}
		t_run = lru_htab::ticks() - start;
		roles[0].evictions = lru_htab::evictions;
	});
	double us = t_run / tsc_per_ns / 1000.0;
	char extra[256];

	snprintf(extra, sizeof(extra),
		 ", \"period_ns\": %ld, \"offered_per_us\": %.4f, "
		 "\"done_per_us\": %.4f, \"late\": %.4f",
		 o.period_ns, 1000.0 / o.period_ns, offered / us,
		 offered ? double(late) / offered : 0.0);
	print(o, entries, roles, extra);
}

void full(const Opts &o)
{
	long entries = o.entries > 0 ? o.entries : 65536;
	Htab h(entries, false);
	std::vector<Role> roles(o.online);
	std::atomic<bool> stop{false};
	PopStats fill;

	if (!h.ok())
		die("bpf_lru_init failed");
	lru_shim_cpu = 0;
	for (long k = 0; k < 2 * entries; k++)
		h.update(k, &fill);
	stop_after(o.ms, &stop);
	run_threads(o.online, [&](int cpu) {
		uint64_t key = (uint64_t(cpu) + 1) << 40;

		lru_htab::evictions = 0;
		while (!stopped(stop))
			h.update(key++, &roles[cpu].st);
		roles[cpu].evictions = lru_htab::evictions;
	});
	for (int i = 0; i < o.online; i++)
		roles[i].name = "cpu" + std::to_string(i);
	print(o, entries, roles, "");
}

// mix: each CPU's recent flows, a ring its owner writes and anyone reads
struct Flows {
	std::vector<std::atomic<uint64_t>> ring;
	uint64_t head = 0;

	explicit Flows(size_t n) : ring(n) {}
	uint64_t pick(std::mt19937_64 &rnd) const
	{
		return ring[rnd() % ring.size()].load(std::memory_order_relaxed);
	}
};

void mix_op(Htab &h, std::vector<Flows> &f, int cpu, int online,
	    std::mt19937_64 &rnd, PopStats *st)
{
	unsigned int r = rnd() % 100;

	if (r < 60) {
		h.lookup(f[cpu].pick(rnd));
	} else if (r < 85) {
		Flows &mine = f[cpu];
		uint64_t key = (uint64_t(cpu) << 40) | ++mine.head;

		mine.ring[mine.head % mine.ring.size()].store(key, std::memory_order_relaxed);
		h.update(key, st);
	} else {
		int owner = (rnd() & 1) ? cpu : int(rnd() % online);

		h.remove(f[owner].pick(rnd));
	}
}

void mix(const Opts &o)
{
	long entries = o.entries > 0 ? o.entries : 65536;
	Htab h(entries, false);
	std::vector<Flows> f;
	std::vector<Role> roles(o.online);
	// warm-up: as many inserts as the map has entries, twice
	long warm = 8 * entries;

	if (!h.ok())
		die("bpf_lru_init failed");
	for (int i = 0; i < o.online; i++) {
		f.emplace_back(std::max<size_t>(2 * entries / o.online, 16));
		roles[i].name = "cpu" + std::to_string(i);
	}
	if (o.sim) {
		std::mt19937_64 rnd(o.seed);
		long ops = o.ops > 0 ? o.ops : std::max(10 * entries, 2000000L);
		PopStats dummy;
		std::vector<uint64_t> ev(o.online);

		for (long i = 0; i < warm + ops; i++) {
			int cpu = rnd() % o.online;

			lru_shim_cpu = cpu;
			lru_htab::evictions = 0;
			mix_op(h, f, cpu, o.online, rnd, i < warm ? &dummy : &roles[cpu].st);
			if (i >= warm)
				ev[cpu] += lru_htab::evictions;
		}
		for (int i = 0; i < o.online; i++)
			roles[i].evictions = ev[i];
		print(o, entries, roles, ", \"ops\": " + std::to_string(ops));
		return;
	}
	std::atomic<bool> stop{false};
	std::atomic<int> warmed{0};

	run_threads(o.online, [&](int cpu) {
		std::mt19937_64 rnd(cpu + 1);
		PopStats dummy;

		for (long i = 0; i < warm / o.online; i++)
			mix_op(h, f, cpu, o.online, rnd, &dummy);
		if (++warmed == o.online)
			stop_after(o.ms, &stop);
		while (warmed.load() < o.online)
			;
		lru_htab::evictions = 0;
		while (!stopped(stop))
			mix_op(h, f, cpu, o.online, rnd, &roles[cpu].st);
		roles[cpu].evictions = lru_htab::evictions;
	});
	print(o, entries, roles, "");
}

// hotcold: CPU @cpu's next op; true if it was a hot lookup that hit
struct HotCold {
	uint64_t hot;			// keys 0..hot-1
	uint64_t lookups = 0, hits = 0;
};

inline void hotcold_op(Htab &h, HotCold &hc, int cpu, uint64_t *cold,
		       std::mt19937_64 &rnd, PopStats *st)
{
	uint64_t r = rnd();

	if (r & 1) {
		uint64_t key = (r >> 1) % hc.hot;

		hc.lookups++;
		if (h.lookup(key))
			hc.hits++;
		else
			h.update(key, st);
	} else {
		h.update(((uint64_t(cpu) + 1) << 40) | (*cold)++, st);
	}
}

// @n ops of the simulated CPUs: the only code callgrind counts
// (--toggle-collect=*hotcold_sim_ops*), so the difference of two run
// lengths is the ops' instructions alone; returns the sum over the ops of
// the keys in the map after each (less those before, lru_htab::live_delta)
noinline int64_t hotcold_sim_ops(Htab &h, HotCold &hc, int online,
				 std::vector<uint64_t> &cold,
				 std::mt19937_64 &rnd, long n, PopStats *st)
{
	int64_t live = 0;

	for (long i = 0; i < n; i++) {
		int cpu = rnd() % online;

		lru_shim_cpu = cpu;
		hotcold_op(h, hc, cpu, &cold[cpu], rnd, st);
		live += lru_htab::live_delta;
	}
	return live;
}

void hotcold(const Opts &o)
{
	long entries = o.entries > 0 ? o.entries : 1024;
	Htab h(entries, false);
	HotCold hc{std::max<uint64_t>(entries * o.hot / 100, 1)};
	std::vector<uint64_t> cold(o.online);
	std::vector<Role> roles{{"all"}};
	char extra[1024];

	if (!h.ok())
		die("bpf_lru_init failed");
	if (o.sim) {
		long ops = o.ops > 0 ? o.ops : std::max(10 * entries, 1000000L);
		std::mt19937_64 rnd(o.seed);
		PopStats warm;
		unsigned long t0[LRU_TALLY_NR];
		int64_t c0, d0, sum;
		double live;

		hotcold_sim_ops(h, hc, o.online, cold, rnd, 4 * entries, &warm);
		hc.lookups = hc.hits = 0;
		lru_htab::evictions = lru_htab::ref_evictions = 0;
		memcpy(t0, lru_shim_tallies, sizeof(t0));
		c0 = h.count();
		d0 = lru_htab::live_delta;
		sum = hotcold_sim_ops(h, hc, o.online, cold, rnd, ops, &roles[0].st);
		// the mean over the ops of the keys in the map after each
		live = (double(c0 - d0) + double(sum) / ops) / entries;
		if (int64_t(h.count()) != c0 + lru_htab::live_delta - d0)
			die("hotcold: the map's keys are not what live_delta says");
		roles[0].evictions = lru_htab::evictions;
		snprintf(extra, sizeof(extra),
			 ", \"ops\": %ld, \"seed\": %ld, \"target_free\": %u, \"nr_scans\": %u, "
			 "\"lookups\": %lu, \"hits\": %lu, \"live\": %.6f, "
			 "\"global\": %lu, \"evicted\": %lu, \"ref_evicted\": %lu, "
			 "\"rotate_active\": %lu, \"rotate_inactive\": %lu, "
			 "\"shrink_scan\": %lu, \"force\": %lu, \"force_scan\": %lu, "
			 "\"shrunk\": %lu",
			 ops, o.seed, h.lru.target_free, h.lru.nr_scans,
			 (unsigned long)hc.lookups, (unsigned long)hc.hits,
			 live, (unsigned long)roles[0].st.global,
			 (unsigned long)lru_htab::evictions,
			 (unsigned long)lru_htab::ref_evictions,
			 lru_shim_tallies[LRU_TALLY_ROTATE_ACTIVE] - t0[LRU_TALLY_ROTATE_ACTIVE],
			 lru_shim_tallies[LRU_TALLY_ROTATE_INACTIVE] - t0[LRU_TALLY_ROTATE_INACTIVE],
			 lru_shim_tallies[LRU_TALLY_SHRINK_SCAN] - t0[LRU_TALLY_SHRINK_SCAN],
			 lru_shim_tallies[LRU_TALLY_FORCE] - t0[LRU_TALLY_FORCE],
			 lru_shim_tallies[LRU_TALLY_FORCE_SCAN] - t0[LRU_TALLY_FORCE_SCAN],
			 lru_shim_tallies[LRU_TALLY_SHRUNK] - t0[LRU_TALLY_SHRUNK]);
		print(o, entries, roles, extra);
		return;
	}
	// threads: each CPU warms up with its share of 4 x entries ops, then
	// runs for --ms; the pops are timed
	std::vector<HotCold> per(o.online, hc);
	std::vector<PopStats> st(o.online);
	std::atomic<bool> stop{false};
	std::atomic<int> warmed{0};
	uint64_t ev = 0;

	run_threads(o.online, [&](int cpu) {
		std::mt19937_64 rnd(cpu + 1);
		uint64_t c = 0;
		PopStats dummy;

		for (long i = 0; i < 4 * entries / o.online; i++)
			hotcold_op(h, per[cpu], cpu, &c, rnd, &dummy);
		per[cpu].lookups = per[cpu].hits = 0;
		if (++warmed == o.online)
			stop_after(o.ms, &stop);
		while (warmed.load() < o.online)
			;
		lru_htab::evictions = 0;
		while (!stopped(stop))
			hotcold_op(h, per[cpu], cpu, &c, rnd, &st[cpu]);
		__atomic_fetch_add(&ev, lru_htab::evictions, __ATOMIC_RELAXED);
	});
	uint64_t lookups = 0, hits = 0;

	for (int i = 0; i < o.online; i++) {
		roles[0].st.add(st[i]);
		lookups += per[i].lookups;
		hits += per[i].hits;
	}
	roles[0].evictions = ev;
	snprintf(extra, sizeof(extra),
		 ", \"target_free\": %u, \"nr_scans\": %u, \"lookups\": %lu, "
		 "\"hits\": %lu, \"global\": %lu",
		 h.lru.target_free, h.lru.nr_scans, (unsigned long)lookups,
		 (unsigned long)hits, (unsigned long)roles[0].st.global);
	print(o, entries, roles, extra);
}

void capacity(const Opts &o)
{
	long asked = o.entries > 0 ? o.entries : 65536;
	// htab_map_alloc(): a BPF_F_NO_COMMON_LRU map's max_entries is rounded
	// up to a multiple of the possible CPUs
	long entries = (asked + o.possible - 1) / o.possible * o.possible;
	PopStats st;

	printf("{\"scenario\": \"capacity\", \"possible\": %u,\n", o.possible);
	for (int percpu = 1; percpu >= 0; percpu--) {
		long n = percpu ? entries : asked;
		Htab h(n, percpu);
		long done = 0;

		if (!h.ok())
			die("bpf_lru_init failed");
		lru_shim_cpu = 0;
		for (long k = 0; k < 2 * n; k++)
			done += !h.update(k, &st);
		printf("  \"%s\": {\"asked\": %ld, \"max_entries\": %ld, \"inserted\": %ld, "
		       "\"left\": %zu}%s\n", percpu ? "no_common_lru" : "common_lru",
		       asked, n, done, h.count(), percpu ? "," : "");
	}
	printf("}\n");
}

}  // namespace

int main(int argc, char **argv)
{
	Opts o;
	int i;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		std::string a = argv[i];

		if (a == "--sim") {
			o.sim = true;
			continue;
		}
		if (i + 1 >= argc)
			die(("option " + a + " needs a value").c_str());
		long v = atol(argv[++i]);

		if (v <= 0)
			die((a + ": a positive number").c_str());
		if (a == "--ms")
			o.ms = v;
		else if (a == "--entries")
			o.entries = v;
		else if (a == "--online")
			o.online = v;
		else if (a == "--ops")
			o.ops = v;
		else if (a == "--hot" && v <= 100)
			o.hot = v;
		else if (a == "--seed")
			o.seed = v;
		else
			die(("unknown option " + a).c_str());
	}
	if (argc - i != 2)
		die("usage: bpf_lru_mt [--ms MS] [--entries N] [--online N] [--sim] [--ops N] [--hot PCT] "
		    "[--seed N] SCENARIO POSSIBLE");
	o.scenario = argv[i];
	long p = atol(argv[i + 1]);

	if (p < 2 || p > 8192)
		die("POSSIBLE: 2..8192");
	o.possible = p;
	if (o.online > (int)o.possible)
		die("--online: at most POSSIBLE");
	nr_cpu_ids = o.possible;
	if (!o.sim)	// --sim counts: no clock, nothing that varies from run to run
		calibrate();
	else
		tsc_per_ns = 1;
	if (o.scenario.rfind("churn-insert:", 0) == 0) {
		o.period_ns = atol(o.scenario.c_str() + strlen("churn-insert:"));
		if (o.period_ns <= 0)
			die("churn-insert:PERIOD_NS: a positive period");
		churn_insert(o);
	} else if (o.scenario == "own") {
		own(o);
	} else if (o.scenario == "steal-remote") {
		steal_remote(o);
	} else if (o.scenario == "full") {
		full(o);
	} else if (o.scenario == "mix") {
		mix(o);
	} else if (o.scenario == "hotcold") {
		hotcold(o);
	} else if (o.scenario == "capacity") {
		capacity(o);
	} else {
		die(("unknown scenario " + o.scenario).c_str());
	}
	return 0;
}
