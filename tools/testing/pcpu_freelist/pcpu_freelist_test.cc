// SPDX-License-Identifier: GPL-2.0-only
//
// GoogleTest tests for kernel/bpf/percpu_freelist.c, compiled unmodified
// against shim/linux/*.h.  Only the public API (pcpu_freelist.h) and the shim
// (current CPU, in_nmi, lock counters) are used, so the tests hold for the base
// version and the series version alike.  The tests that need a held lock take
// the real per-CPU / extralist locks named in the public header.
//
// Environment:
//   PFL_STRESS_OPS      total operations of the stress test (default 10^7)
//   PFL_STRESS_THREADS  worker threads of the stress test (default 6)

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

extern "C" {
#include "percpu_freelist.h"
}
#undef min	/* tools/include's, in the way of std::min and std::max */
#undef max

namespace {

// The heads' locks: raw spinlocks (6.1, 6.12) or rqspinlocks (7.3), whose
// acquisitions can fail and which have no NMI-only paths.
[[maybe_unused]] void take(raw_spinlock_t *l) { raw_spin_lock(l); }
[[maybe_unused]] void release(raw_spinlock_t *l) { raw_spin_unlock(l); }
#ifdef PCPU_SHIM_RQSPINLOCK_H
constexpr bool kRqspinlock = true;
void take(rqspinlock_t *l)
{
	while (raw_res_spin_lock(l))
		;
}
void release(rqspinlock_t *l) { raw_res_spin_unlock(l); }
#else
constexpr bool kRqspinlock = false;
#endif
// rqspinlock failure injection: a thread can make every per-CPU head's lock
// fail (its push then lands in the extralist), and any thread fails one
// acquisition in kFailRate while inject_rate is on.
const void *extra_lock_of_test;
thread_local bool fail_heads;
std::atomic<unsigned int> fail_rate{0};
[[maybe_unused]] thread_local unsigned long fail_x = 88172645463325252ul;
#ifdef PCPU_SHIM_RQSPINLOCK_H
int inject(rqspinlock_t *l)
{
	unsigned int r = fail_rate.load(std::memory_order_relaxed);

	if (fail_heads && l != extra_lock_of_test)
		return -EDEADLK;
	if (!r)
		return 0;
	fail_x ^= fail_x << 13;
	fail_x ^= fail_x >> 7;
	fail_x ^= fail_x << 17;
	return fail_x % r ? 0 : -ETIMEDOUT;
}
struct InjectOn {
	InjectOn() { pcpu_shim_res_lock_fail = inject; }
} inject_on;
#endif
#define SKIP_ON_RQSPINLOCK() \
	do { \
		if (kRqspinlock) \
			GTEST_SKIP() << "NMI-only paths: not in the rqspinlock version"; \
	} while (0)

struct Elem {
	struct pcpu_freelist_node node; // first: pcpu_freelist_populate()
	std::atomic<int> owner{0};	// 0: in the freelist, t + 1: thread t
	unsigned int idx = 0;
};

Elem *to_elem(struct pcpu_freelist_node *n)
{
	return n ? reinterpret_cast<Elem *>(n) : nullptr;
}

struct LockCount {
	struct pcpu_shim_stats start = pcpu_shim_stats;
	unsigned long acquired() const
	{
		return pcpu_shim_stats.lock_acquired - start.lock_acquired;
	}
	unsigned long failed() const
	{
		return pcpu_shim_stats.trylock_failed - start.trylock_failed;
	}
	unsigned long shared_rmw() const
	{
		return pcpu_shim_stats.shared_rmw - start.shared_rmw;
	}
};

unsigned long env_ul(const char *name, unsigned long def)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, nullptr, 0) : def;
}

// One freelist with ncpus possible CPUs and nelems elements (not populated).
class Freelist {
public:
	explicit Freelist(unsigned int ncpus, unsigned int nelems = 0)
		: ncpus_(ncpus), elems_(nelems)
	{
		EXPECT_EQ(pcpu_shim_set_nr_cpus(ncpus), 0);
		EXPECT_EQ(pcpu_freelist_init(&fl_), 0);
		for (unsigned int i = 0; i < nelems; i++)
			elems_[i].idx = i;
	}
	~Freelist()
	{
		pcpu_freelist_destroy(&fl_);
		pcpu_shim_cpu = 0;
		pcpu_shim_in_nmi = 0;
	}
	Freelist(const Freelist &) = delete;
	Freelist &operator=(const Freelist &) = delete;

	unsigned int ncpus() const { return ncpus_; }
	Elem *elem(unsigned int i) { return &elems_.at(i); }
	size_t nelems() const { return elems_.size(); }
	struct pcpu_freelist *fl() { return &fl_; }

	void populate()
	{
		pcpu_freelist_populate(&fl_, elems_.data(), sizeof(Elem),
				       elems_.size());
	}
	void push(unsigned int cpu, Elem *e, bool nmi = false)
	{
		pcpu_shim_cpu = cpu;
		pcpu_shim_in_nmi = nmi;
		pcpu_freelist_push(&fl_, &e->node);
		pcpu_shim_in_nmi = 0;
	}
	Elem *pop(unsigned int cpu, bool nmi = false)
	{
		pcpu_shim_cpu = cpu;
		pcpu_shim_in_nmi = nmi;
		Elem *e = to_elem(pcpu_freelist_pop(&fl_));
		pcpu_shim_in_nmi = 0;
		return e;
	}
	auto *cpu_lock(unsigned int cpu)
	{
		return &per_cpu_ptr(fl_.freelist, cpu)->lock;
	}
	auto *extra_lock() { return &fl_.extralist.lock; }
	void lock_all_cpus()
	{
		for (unsigned int c = 0; c < ncpus_; c++)
			take(cpu_lock(c));
	}
	void unlock_all_cpus()
	{
		for (unsigned int c = 0; c < ncpus_; c++)
			release(cpu_lock(c));
	}
	// NMI push while every per-CPU lock is held (or, with rqspinlocks,
	// fails): lands in the extralist.
	void push_extra(Elem *e)
	{
		if (kRqspinlock) {
			extra_lock_of_test = extra_lock();
			fail_heads = true;
			push(0, e);
			fail_heads = false;
			return;
		}
		lock_all_cpus();
		push(0, e, true);
		unlock_all_cpus();
	}

private:
	unsigned int ncpus_;
	struct pcpu_freelist fl_ = {};
	std::vector<Elem> elems_;
};

// A few interesting CPUs of [0, n): the ends, the middle, neighbours of k.
std::vector<unsigned int> some_cpus(unsigned int n, unsigned int k = 0)
{
	std::set<unsigned int> s = { 0, 1 % n, n / 2, n - 1, k, (k + 1) % n,
				     (k + n - 1) % n };
	return std::vector<unsigned int>(s.begin(), s.end());
}

const unsigned int kCpuCounts[] = { 1, 8, 64, 256, 1024 };

class PerCpuCount : public ::testing::TestWithParam<unsigned int> {};

INSTANTIATE_TEST_SUITE_P(Cpus, PerCpuCount,
			 ::testing::Values(1u, 2u, 3u, 8u, 64u, 256u, 1024u));

class ExhaustedCpuCount : public ::testing::TestWithParam<unsigned int> {};

INSTANTIATE_TEST_SUITE_P(Cpus, ExhaustedCpuCount,
			 ::testing::ValuesIn(kCpuCounts));

} // namespace

TEST_P(PerCpuCount, LifoPerCpu)
{
	const unsigned int n = GetParam();
	Freelist f(n, 10);

	for (unsigned int cpu : some_cpus(n)) {
		for (unsigned int i = 0; i < 10; i++)
			f.push(cpu, f.elem(i));
		for (unsigned int i = 10; i-- > 0;)
			ASSERT_EQ(f.pop(cpu), f.elem(i)) << "cpu " << cpu;
		ASSERT_EQ(f.pop(cpu), nullptr);
	}
	if (n < 2)
		return;
	// A CPU's own list comes first, then the others.
	f.push(0, f.elem(0));
	f.push(1, f.elem(1));
	f.push(1, f.elem(2));
	EXPECT_EQ(f.pop(0), f.elem(0));
	EXPECT_EQ(f.pop(0), f.elem(2));
	EXPECT_EQ(f.pop(0), f.elem(1));
	EXPECT_EQ(f.pop(0), nullptr);
}

TEST_P(PerCpuCount, PopulateSpreadsOverCpus)
{
	const unsigned int n = GetParam();

	for (unsigned int nelems : { 0u, n - 1, n, 3 * n + n / 2 + 1 }) {
		Freelist f(n, nelems);
		unsigned int q = nelems / n, r = nelems % n, first = 0;

		f.populate();
		// CPU c owns the next q (+1 for the first r CPUs) elements of
		// the buffer and pops them back last-in first-out.
		for (unsigned int c = 0; c < n; c++) {
			unsigned int cnt = q + (c < r ? 1 : 0);

			for (unsigned int i = cnt; i-- > 0;) {
				Elem *e = f.pop(c);

				ASSERT_EQ(e, f.elem(first + i))
					<< "cpu " << c << " of " << n << ", "
					<< nelems << " elems";
			}
			first += cnt;
		}
		ASSERT_EQ(first, nelems);
		for (unsigned int c : some_cpus(n))
			ASSERT_EQ(f.pop(c), nullptr);
	}
}

TEST_P(PerCpuCount, NeverNullWhileNodesRemain)
{
	const unsigned int n = GetParam();
	Freelist f(n, 2 * n + 3);

	// One node on one (possibly far) CPU, popped from anywhere.
	for (unsigned int k : some_cpus(n)) {
		for (unsigned int c : some_cpus(n, k)) {
			for (bool nmi : { false, true }) {
				f.push(k, f.elem(0));
				ASSERT_EQ(f.pop(c, nmi), f.elem(0))
					<< "node on cpu " << k << ", pop on "
					<< c << (nmi ? " in nmi" : "");
				ASSERT_EQ(f.pop(c), nullptr);
			}
		}
	}
	// Only in the extralist.
	for (unsigned int c : some_cpus(n)) {
		for (bool nmi : { false, true }) {
			f.push_extra(f.elem(1));
			ASSERT_EQ(f.pop(c, nmi), f.elem(1)) << "cpu " << c;
			ASSERT_EQ(f.pop(c), nullptr);
		}
	}
	// In the extralist and on a far CPU at once.
	f.push_extra(f.elem(0));
	f.push(n - 1, f.elem(1));
	std::set<Elem *> got = { f.pop(0), f.pop(0) };
	EXPECT_EQ(got, (std::set<Elem *>{ f.elem(0), f.elem(1) }));
	EXPECT_EQ(f.pop(0), nullptr);

	// Populated, then popped from pseudo-random CPUs: every node comes
	// back before the first NULL.
	Freelist g(n, 2 * n + 3);
	std::set<Elem *> seen;
	unsigned int x = 12345;

	g.populate();
	for (unsigned int i = 0; i < g.nelems(); i++) {
		x = x * 1103515245 + 12345;
		Elem *e = g.pop((x >> 8) % n, i % 5 == 0);

		ASSERT_NE(e, nullptr) << "after " << i << " pops";
		ASSERT_TRUE(seen.insert(e).second) << "duplicate " << e->idx;
	}
	EXPECT_EQ(g.pop(0), nullptr);
}

// A CPU that pops and pushes its own head, even one that empties and refills
// it on every pair, must not write memory that other CPUs share: no atomic
// read-modify-write of a shared word, once the first push is done.
TEST_P(PerCpuCount, OwnHeadCyclingWritesNothingShared)
{
	const unsigned int n = GetParam();

	for (unsigned int nodes : { 1u, 8u }) {
		Freelist f(n, nodes);

		for (unsigned int cpu : some_cpus(n)) {
			for (unsigned int i = 0; i < nodes; i++)
				f.push(cpu, f.elem(i));
			LockCount lc;

			for (int round = 0; round < 100; round++) {
				std::vector<Elem *> got;

				for (unsigned int i = 0; i < nodes; i++)
					got.push_back(f.pop(cpu, round & 1));
				for (Elem *e : got) {
					ASSERT_NE(e, nullptr) << "cpu " << cpu;
					f.push(cpu, e);
				}
			}
			EXPECT_EQ(lc.shared_rmw(), 0u)
				<< "cpu " << cpu << " of " << n << ", " << nodes
				<< " node(s): atomic writes of shared words";
			for (unsigned int i = 0; i < nodes; i++)
				ASSERT_NE(f.pop(cpu), nullptr);
		}
	}
}

// A pop that falls back to other CPUs takes the last node of CPU k, or finds
// CPU k's head empty; right after it releases that head's lock, CPU k pushes
// a node. Whatever the pop did to its bookkeeping of non-empty heads must
// not hide that node from the next pop on another CPU.
namespace {
Freelist *window_fl;
Elem *window_elem, *window_elem2;	/* the second one: if not null */
unsigned int window_cpu;

void push_in_window(void *)
{
	int cpu = pcpu_shim_cpu;

	window_fl->push(window_cpu, window_elem);
	if (window_elem2)
		window_fl->push(window_cpu, window_elem2);
	pcpu_shim_cpu = cpu;
}
} // namespace

TEST_P(PerCpuCount, PushRightAfterARemotePopIsSeen)
{
	const unsigned int n = GetParam();

	if (n < 2)
		return;
	for (unsigned int k : some_cpus(n)) {
		for (bool empty_found : { false, true }) {
			const unsigned int c = (k + 1) % n;
			Freelist f(n, 2);

			f.push(k, f.elem(0));
			if (empty_found) {
				// k's own pop empties its head
				ASSERT_EQ(f.pop(k), f.elem(0));
			}
			window_fl = &f;
			window_elem = f.elem(1);
			window_cpu = k;
			pcpu_shim_after_unlock = push_in_window;
			// This pop may or may not see the node pushed while it
			// runs; the next one must.
			std::set<Elem *> got = { f.pop(c) };

			if (pcpu_shim_after_unlock) {
				// No lock taken (the base skips an empty head
				// without it): no window, push afterwards.
				pcpu_shim_after_unlock = nullptr;
				f.push(k, f.elem(1));
			}
			got.insert(f.pop(c));
			got.erase(nullptr);
			std::set<Elem *> want = { f.elem(1) };

			if (!empty_found)
				want.insert(f.elem(0));
			ASSERT_EQ(got, want)
				<< "node pushed on cpu " << k << " right after cpu "
				<< c << (empty_found ? " found its head empty" :
						       " took its last node");
			ASSERT_EQ(f.pop(c), nullptr);
		}
	}
}

// A node pushed on CPU k after an exhausted pop elsewhere (which may have
// updated its bookkeeping of CPU k) is found from every other CPU.
TEST_P(PerCpuCount, PushAfterExhaustedPopIsSeen)
{
	const unsigned int n = GetParam();
	Freelist f(n, 1);

	for (unsigned int k : some_cpus(n)) {
		for (unsigned int c : some_cpus(n, k)) {
			f.push(k, f.elem(0));
			ASSERT_EQ(f.pop(k), f.elem(0));
			ASSERT_EQ(f.pop(c), nullptr);
			f.push(k, f.elem(0));
			ASSERT_EQ(f.pop(c), f.elem(0))
				<< "node on cpu " << k << ", pop on " << c;
		}
	}
}

// The ageing reads a head empty without its lock, then takes the lock to
// clear the head's bit: a push that comes in between must keep the bit, and
// the count of set bits, so that its node stays findable from every CPU.
namespace {
const void *gap_lock;

// The push of PushRightAfterARemotePopIsSeen's window, before gap_lock is taken.
void push_before_lock(void *l)
{
	if (l != gap_lock) {
		pcpu_shim_before_lock = push_before_lock;	// not this one
		return;
	}
	push_in_window(nullptr);
}
} // namespace

TEST_P(PerCpuCount, AgeingLooksAgainUnderTheLock)
{
	const unsigned int n = GetParam();

	if (n < 2)
		return;
	for (unsigned int k : some_cpus(n)) {
		const unsigned int c = (k + 1) % n;

		pcpu_shim_jiffies = 1000;
		Freelist f(n, 2);

		// k's head empty with its bit set, idle for 3 jiffies
		f.push(k, f.elem(0));
		ASSERT_EQ(f.pop(k), f.elem(0));
		pcpu_shim_jiffies += 3;
		window_fl = &f;
		window_elem = f.elem(1);
		window_cpu = k;
		gap_lock = f.cpu_lock(k);
		pcpu_shim_before_lock = push_before_lock;
		Elem *got = f.pop(c);

		if (pcpu_shim_before_lock) {
			pcpu_shim_before_lock = nullptr;
			GTEST_SKIP() << "no ageing under the head's lock in this version";
		}
		if (!got)
			got = f.pop(c);
		ASSERT_EQ(got, f.elem(1))
			<< "node pushed on cpu " << k << " while cpu " << c
			<< " aged its empty head";
		ASSERT_EQ(f.pop(c), nullptr);
	}
}

// A pop that finds its own head empty clears its bit under the head's lock
// (the series): a push onto that head right before the lock (another CPU
// whose own lock failed, an NMI) must keep its node findable.
TEST_P(PerCpuCount, OwnEmptyHeadLooksAgainUnderTheLock)
{
	const unsigned int n = GetParam();

	if (n < 2)
		return;
	for (unsigned int k : some_cpus(n)) {
		const unsigned int c = (k + 1) % n;
		Freelist f(n, 3);

		// k's head empty, its own pop took the last node
		f.push(k, f.elem(0));
		ASSERT_EQ(f.pop(k), f.elem(0));
		// two nodes pushed right before k's pop locks its head: it
		// takes one, the other stays, findable from another CPU
		window_fl = &f;
		window_elem = f.elem(1);
		window_elem2 = f.elem(2);
		window_cpu = k;
		gap_lock = f.cpu_lock(k);
		pcpu_shim_before_lock = push_before_lock;
		std::set<Elem *> got = { f.pop(k) };

		window_elem2 = nullptr;
		if (pcpu_shim_before_lock) {
			pcpu_shim_before_lock = nullptr;
			GTEST_SKIP() << "no lock of an empty own head in this version";
		}
		got.insert(f.pop(c));
		got.insert(f.pop(c));
		got.erase(nullptr);
		ASSERT_EQ(got, std::set<Elem *>({ f.elem(1), f.elem(2) }))
			<< "nodes pushed on cpu " << k << " while its own pop found "
			<< "its head empty";
		ASSERT_EQ(f.pop(c), nullptr);
	}
}

TEST_P(ExhaustedCpuCount, PopTakesNoLocks)
{
	const unsigned int n = GetParam();
	const unsigned int step = n > 64 ? n / 64 : 1;

	{
		Freelist f(n);
		LockCount lc;

		for (unsigned int c = 0; c < n; c += step) {
			ASSERT_EQ(f.pop(c), nullptr);
			ASSERT_EQ(f.pop(c, true), nullptr);
		}
		EXPECT_EQ(lc.acquired(), 0u) << "fresh freelist";
		EXPECT_EQ(lc.failed(), 0u) << "fresh freelist";
	}
	// Populated, plus extralist nodes, then drained from many CPUs.
	Freelist f(n, 2 * n + 1 + 3);

	f.populate();
	for (unsigned int i = 0; i < 3; i++) {
		Elem *e = f.pop(i % n);

		ASSERT_NE(e, nullptr);
		f.push_extra(e);
	}
	for (size_t i = 0; i < f.nelems(); i++)
		ASSERT_NE(f.pop((i * 7) % n), nullptr) << "pop " << i;

	// A CPU that emptied its own head may lock it once, to forget it
	// (the series clears its bit there); nothing else takes a lock.
	std::vector<unsigned int> cpus;

	for (unsigned int c = 0; c < n; c += step)
		cpus.push_back(c);
	if (cpus.back() != n - 1)
		cpus.push_back(n - 1);
	for (unsigned int c : cpus) {
		LockCount first;

		ASSERT_EQ(f.pop(c), nullptr);
		EXPECT_LE(first.acquired(), 1u) << "first exhausted pop on cpu " << c;
	}
	LockCount lc;

	for (unsigned int c = 0; c < n; c += step) {
		ASSERT_EQ(f.pop(c), nullptr);
		ASSERT_EQ(f.pop(c, true), nullptr);
	}
	ASSERT_EQ(f.pop(n - 1), nullptr);
	EXPECT_EQ(lc.acquired(), 0u) << "exhausted pop took locks";
	EXPECT_EQ(lc.failed(), 0u) << "exhausted pop tried locks";
}

TEST(PcpuFreelist, NmiPushFallsBackToExtralist)
{
	SKIP_ON_RQSPINLOCK();
	for (unsigned int n : { 1u, 4u, 64u }) {
		Freelist f(n, 3);

		f.lock_all_cpus();
		LockCount lc;

		for (unsigned int i = 0; i < 3; i++)
			f.push(i % n, f.elem(i), true);
		// every per-CPU trylock failed, the extralist one did not
		EXPECT_EQ(lc.failed(), 3u * n);
		EXPECT_EQ(lc.acquired(), 3u);
		// per-CPU locks still held: only the extralist can serve
		EXPECT_EQ(f.pop(0, true), f.elem(2));
		f.unlock_all_cpus();
		// the extralist is LIFO too
		EXPECT_EQ(f.pop(n - 1), f.elem(1));
		EXPECT_EQ(f.pop(0, true), f.elem(0));
		EXPECT_EQ(f.pop(0), nullptr);
		EXPECT_EQ(f.pop(0, true), nullptr);
	}
}

TEST(PcpuFreelist, NmiPushWaitsForAFreeLock)
{
	SKIP_ON_RQSPINLOCK();
	const unsigned int n = 4, k = 2;
	Freelist f(n, 1);
	std::atomic<int> phase{0};

	f.lock_all_cpus();
	take(f.extra_lock());
	std::thread t([&] {
		LockCount lc;

		f.push(0, f.elem(0), true); // spins: nothing can be locked
		EXPECT_GT(lc.failed(), (unsigned long)n + 1);
		phase = 1;
	});
	std::this_thread::sleep_for(std::chrono::milliseconds(20));
	EXPECT_EQ(phase.load(), 0) << "NMI push returned with all locks held";
	release(f.cpu_lock(k));
	t.join();
	// the only free lock was CPU k's; the others are still held here
	EXPECT_EQ(f.pop(k, true), f.elem(0));
	f.unlock_all_cpus(); // k was released by the push already
	release(f.extra_lock());
	EXPECT_EQ(f.pop(0), nullptr);
}

TEST(PcpuFreelist, NmiPopPath)
{
	SKIP_ON_RQSPINLOCK();
	const unsigned int n = 8;
	Freelist f(n, 4);

	// not contended: NMI pop is the plain LIFO pop
	f.push(3, f.elem(0));
	f.push(3, f.elem(1));
	EXPECT_EQ(f.pop(3, true), f.elem(1));

	// only CPU 3 has nodes and its lock is held: NULL, without spinning
	take(f.cpu_lock(3));
	{
		LockCount lc;

		EXPECT_EQ(f.pop(3, true), nullptr);
		EXPECT_EQ(f.pop(0, true), nullptr);
		EXPECT_GE(lc.failed(), 2u);
		EXPECT_EQ(lc.acquired(), 0u);
	}
	// a free CPU with nodes is used instead of the held one
	f.push(5, f.elem(2));
	{
		LockCount lc;

		EXPECT_EQ(f.pop(3, true), f.elem(2));
		EXPECT_EQ(lc.failed(), 1u);
		EXPECT_EQ(lc.acquired(), 1u);
	}
	// extralist node, extralist lock held as well: still NULL
	release(f.cpu_lock(3));
	f.push_extra(f.elem(3));
	take(f.cpu_lock(3));
	take(f.extra_lock());
	EXPECT_EQ(f.pop(1, true), nullptr);
	release(f.extra_lock());
	EXPECT_EQ(f.pop(1, true), f.elem(3));
	release(f.cpu_lock(3));
	EXPECT_EQ(f.pop(1, true), f.elem(0));
	EXPECT_EQ(f.pop(1, true), nullptr);
}

// T threads push and pop on random CPUs, some of it as NMI, while a hog thread
// now and then holds every per-CPU lock (forcing NMI pushes to the extralist).
// Afterwards every node must be in the freelist exactly once or held by
// exactly one thread.
class Stress : public ::testing::TestWithParam<unsigned int> {};

INSTANTIATE_TEST_SUITE_P(Cpus, Stress, ::testing::Values(3u, 64u));

TEST_P(Stress, NodeConservation)
{
	const unsigned int n = GetParam();
	// half of the ops for each of the two CPU counts
	const unsigned long total = (env_ul("PFL_STRESS_OPS", 10000000) + 1) / 2;
	const unsigned int nthreads = env_ul("PFL_STRESS_THREADS", 6);
	const unsigned int nelems = 256, max_held = 64;
	const unsigned long per_thread = (total + nthreads - 1) / nthreads;
	Freelist f(n, nelems);
	std::atomic<unsigned long> errors{0}, nulls{0}, extra_pushes{0};
	std::atomic<bool> stop{false}, go{false};
	std::vector<std::vector<Elem *>> held(nthreads + 1); // + hog
	std::vector<std::thread> threads;

	f.populate();
	for (unsigned int t = 0; t < nthreads; t++) {
		threads.emplace_back([&, t] {
			std::vector<Elem *> &mine = held[t];
			unsigned long x = 0x9e3779b97f4a7c15ul * (t + 1);
			unsigned long nnull = 0, nextra = 0, nerr = 0;

			while (!go)
				std::this_thread::yield();
			for (unsigned long i = 0; i < per_thread; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				unsigned int cpu = (x >> 3) % n;
				bool nmi = ((x >> 20) & 15) == 0;
				bool irqs_off = (x >> 24) & 1;
				bool pop = mine.empty() ||
					   (mine.size() < max_held &&
					    ((x >> 25) & 1));

				pcpu_shim_cpu = cpu;
				pcpu_shim_in_nmi = nmi;
				if (pop) {
					struct pcpu_freelist_node *nd;

					nd = irqs_off ?
						     __pcpu_freelist_pop(f.fl()) :
						     pcpu_freelist_pop(f.fl());
					Elem *e = to_elem(nd);
					int exp = 0;

					if (!e) {
						nnull++;
					} else {
						if (!e->owner.compare_exchange_strong(
							    exp, t + 1))
							nerr++;
						mine.push_back(e);
					}
				} else {
					size_t j = (x >> 32) % mine.size();
					Elem *e = mine[j];
					int exp = t + 1;
					LockCount lc;

					mine[j] = mine.back();
					mine.pop_back();
					if (!e->owner.compare_exchange_strong(
						    exp, 0))
						nerr++;
					if (irqs_off)
						__pcpu_freelist_push(f.fl(),
								     &e->node);
					else
						pcpu_freelist_push(f.fl(),
								   &e->node);
					if (nmi && lc.failed() >= n)
						nextra++;
				}
				pcpu_shim_in_nmi = 0;
			}
			nulls += nnull;
			extra_pushes += nextra;
			errors += nerr;
		});
	}
	// The hog takes a few nodes, then pushes them in NMI context while it
	// holds every per-CPU lock, so they go to the extralist while the
	// workers run (and block, or fail trylocks, on the held locks).
	std::thread hog([&, t = nthreads] {
		std::vector<Elem *> &mine = held[t];
		unsigned long nextra = 0, nerr = 0, x = 1;

		while (!stop) {
			for (int i = 0; i < 8; i++) {
				x = x * 6364136223846793005ul + 1;
				pcpu_shim_cpu = (x >> 33) % n;
				Elem *e = to_elem(pcpu_freelist_pop(f.fl()));
				int exp = 0;

				if (!e)
					break;
				if (!e->owner.compare_exchange_strong(exp,
								      t + 1))
					nerr++;
				mine.push_back(e);
			}
			if (kRqspinlock) {
				extra_lock_of_test = f.extra_lock();
				fail_heads = true;
			} else {
				f.lock_all_cpus();
			}
			pcpu_shim_in_nmi = 1;
			while (!mine.empty()) {
				Elem *e = mine.back();
				int exp = t + 1;

				mine.pop_back();
				if (!e->owner.compare_exchange_strong(exp, 0))
					nerr++;
				pcpu_freelist_push(f.fl(), &e->node);
				nextra++;
			}
			pcpu_shim_in_nmi = 0;
			for (int i = 0; i < 2000; i++)
				cpu_relax();
			if (kRqspinlock)
				fail_heads = false;
			else
				f.unlock_all_cpus();
			for (int i = 0; i < 20000; i++)
				cpu_relax();
		}
		extra_pushes += nextra;
		errors += nerr;
	});
	// rqspinlock: besides, one acquisition in 16 fails, anywhere
	fail_rate = kRqspinlock ? 16 : 0;
	go = true;
	for (auto &th : threads)
		th.join();
	stop = true;
	hog.join();
	fail_rate = 0;

	EXPECT_EQ(errors.load(), 0u) << "a node was popped twice or lost";

	// Drain from one CPU: with nothing else running, a pop returns NULL
	// only when the freelist is empty, so that must take every free node.
	// Then from every CPU, to count what the first drain missed; more pops
	// than nodes means a corrupted (e.g. cyclic) list.
	std::vector<unsigned int> seen(nelems, 0);
	unsigned int drained = 0, missed = 0;

	for (unsigned int c = 0; c < n && drained <= nelems; c++) {
		while (Elem *e = f.pop(c)) {
			seen.at(e->idx)++;
			missed += c > 0;
			if (++drained > nelems)
				break;
		}
	}
	ASSERT_LE(drained, nelems) << "more nodes popped than exist";
	EXPECT_EQ(missed, 0u) << "pops on cpu 0 returned NULL while nodes remained";
	std::vector<unsigned int> holders(nelems, 0);

	for (unsigned int t = 0; t <= nthreads; t++) {
		for (Elem *e : held[t]) {
			holders.at(e->idx)++;
			EXPECT_EQ(e->owner.load(), (int)t + 1) << "node " << e->idx;
		}
	}
	unsigned long in_list = 0, out = 0;

	for (unsigned int i = 0; i < nelems; i++) {
		int owner = f.elem(i)->owner.load();

		in_list += seen[i];
		out += holders[i];
		if (owner == 0) {
			EXPECT_EQ(seen[i], 1u) << "free node " << i;
			EXPECT_EQ(holders[i], 0u) << "free node " << i;
		} else {
			EXPECT_EQ(seen[i], 0u) << "held node " << i;
			EXPECT_EQ(holders[i], 1u) << "held node " << i;
		}
	}
	EXPECT_EQ(in_list + out, nelems);

	LockCount lc;

	EXPECT_EQ(f.pop(0), nullptr);
	EXPECT_EQ(lc.acquired(), 0u);
	printf("[   INFO   ] %u cpus, %u threads, %lu ops: %lu NULL pops, "
	       "%lu extralist pushes, "
	       "%lu in list + %lu held\n",
	       n, nthreads, per_thread * nthreads, nulls.load(),
	       extra_pushes.load(), in_list, out);
}

// The hint (a version with one): bit N of pcpu_freelist::nonempty is written
// only by a thread that holds head N's lock. The shim calls this hook on every
// atomic bitop; the base does none.
namespace {
Freelist *hint_fl;
unsigned long hint_violations;
std::string hint_first_violation;

// The word of a summary of the hint (v3 since run 4), or nullptr.
template <typename T>
auto summary_word(T *fl) -> decltype(&fl->summary->groups)
{
	return &fl->summary->groups;
}
[[maybe_unused]] const volatile unsigned long *summary_word(...)
{
	return nullptr;
}

// The summary of the hint, whatever its shape: v3's group bits, or the count
// of set bits (since v4); false for a version without one.
template <typename T>
auto summary_of(T *fl, unsigned long *v) -> decltype(&fl->summary->groups, bool())
{
	*v = READ_ONCE(fl->summary->groups);
	return true;
}
template <typename T>
auto summary_of(T *fl, unsigned long *v) -> decltype(&fl->hint->nr_set, bool())
{
	*v = atomic_read(&fl->hint->nr_set);
	return true;
}
[[maybe_unused]] bool summary_of(...)
{
	return false;
}

void check_hint_bitop(long nr, const volatile unsigned long *addr)
{
	// a summary bit covers words of bits of many heads: no lock of its own
	if (addr == summary_word(hint_fl->fl()))
		return;
	if (nr >= 0 && nr < (long)hint_fl->ncpus() &&
	    pcpu_shim_holds(hint_fl->cpu_lock(nr)))
		return;
	if (!hint_violations++)
		hint_first_violation = "cpu " + std::to_string(pcpu_shim_cpu) +
				       " wrote hint bit " + std::to_string(nr) +
				       " without holding head " +
				       std::to_string(nr) + "'s lock";
}

// On 7.3: this thread's acquisitions of one head's lock fail.
[[maybe_unused]] const void *failing_lock;
#ifdef PCPU_SHIM_RQSPINLOCK_H
int fail_one(rqspinlock_t *l)
{
	return l == failing_lock ? -EDEADLK : inject(l);
}
#endif

// Push on cpu k while k's own head cannot be taken: an NMI with k's lock
// held (6.1, 6.12), a failed rqspinlock acquisition (7.3).
void push_own_busy(Freelist &f, unsigned int k, Elem *e)
{
#ifdef PCPU_SHIM_RQSPINLOCK_H
	failing_lock = f.cpu_lock(k);
	pcpu_shim_res_lock_fail = fail_one;
	f.push(k, e);
	pcpu_shim_res_lock_fail = inject;
#else
	take(f.cpu_lock(k));
	f.push(k, e, true);
	release(f.cpu_lock(k));
#endif
}
} // namespace

TEST_P(PerCpuCount, HintBitsWrittenOnlyUnderTheirHeadLock)
{
	const unsigned int n = GetParam();
	Freelist f(n, 3 * n + 4);
	unsigned int next = 0;

	hint_fl = &f;
	hint_violations = 0;
	pcpu_shim_bitop_hook = check_hint_bitop;
	pcpu_shim_jiffies = 1000;
	for (unsigned int round = 0; round < 6; round++) {
		std::vector<Elem *> out;

		// pushes everywhere, by every path
		for (unsigned int k : some_cpus(n, round % n)) {
			f.push(k, f.elem(next++ % f.nelems()));
			push_own_busy(f, k, f.elem(next++ % f.nelems()));
		}
		f.push_extra(f.elem(next++ % f.nelems()));
		// pops from other CPUs, taking last nodes, then in vain
		for (unsigned int c : some_cpus(n, (round + 1) % n))
			while (Elem *e = f.pop(c))
				out.push_back(e);
		// idle heads: exhausted pops over a few jiffies clear stale bits
		for (int tick = 0; tick < 4; tick++) {
			pcpu_shim_jiffies++;
			for (unsigned int c : some_cpus(n))
				EXPECT_EQ(f.pop(c), nullptr);
		}
		// own-head flips
		for (unsigned int k : some_cpus(n, round % n)) {
			f.push(k, f.elem(0));
			EXPECT_EQ(f.pop(k), f.elem(0));
		}
	}
	pcpu_shim_bitop_hook = nullptr;
	EXPECT_EQ(hint_violations, 0u) << hint_first_violation;
}

// The summary of the hint (a bit per group of its words): a scan that read a
// group's words zero clears the group's bit. A push on CPU k right before
// that clear (the push sets k's bit, reads the group's bit still set, and
// leaves it) must stay findable: the clearer reads the words again after its
// clear and sets the bit again. A pop on CPU m while the group's bit is clear
// (between the clear and the setting again) must find the node too: the clear
// is under way (odd ->clears), so the pop does not trust the summary.
namespace {
struct SummaryRace {
	Freelist *f;
	const volatile unsigned long *word;
	unsigned int k, c, m, phase;
	Elem *node, *in_window;
} race;

void summary_race_bitop(long nr, const volatile unsigned long *addr)
{
	bool set;

	if (addr != race.word)
		return;
	set = (__atomic_load_n(addr + BIT_WORD(nr), __ATOMIC_RELAXED) >>
	       (nr % BITS_PER_LONG)) & 1;
	if (race.phase == 0 && set) {
		// the clearer's clear_bit(), about to clear: a push on k
		race.phase = 1;
		race.f->push(race.k, race.node);
		pcpu_shim_cpu = race.c;
	} else if (race.phase == 1 && !set) {
		// the clearer sets the bit again: a pop on m meanwhile
		race.phase = 2;
		race.in_window = race.f->pop(race.m);
		if (race.in_window)
			race.f->push(race.k, race.in_window);
		pcpu_shim_cpu = race.c;
	}
}
} // namespace

TEST_P(PerCpuCount, SummaryClearRacingAPushAndAPop)
{
	const unsigned int n = GetParam();
	Freelist f(n, 2);

	if (!summary_word(f.fl()))
		GTEST_SKIP() << "no summary of the hint in this version";
	if (n < 2)
		return;
	race = { &f, summary_word(f.fl()), n - 1, 0, n / 2 == n - 1 ? 0 : n / 2,
		 0, f.elem(1), nullptr };
	// k's bit stale: its head emptied by its own pop; idle heads age out
	f.push(race.k, f.elem(0));
	ASSERT_EQ(f.pop(race.k), f.elem(0));
	pcpu_shim_bitop_hook = summary_race_bitop;
	pcpu_shim_jiffies = 1000;
	for (int tick = 0; tick < 8 && race.phase == 0; tick++) {
		pcpu_shim_jiffies++;
		// a pop that overlaps the push may take the node or not
		if (Elem *e = f.pop(race.c)) {
			ASSERT_EQ(e, race.node);
			f.push(race.k, e);
		}
	}
	pcpu_shim_bitop_hook = nullptr;
	ASSERT_GE(race.phase, 1u) << "no scan cleared the summary bit of an "
				     "idle group";
	EXPECT_EQ(f.pop(race.m), race.node)
		<< "node pushed on cpu " << race.k << " of " << n
		<< " right before a clear of its summary bit: lost to cpu "
		<< race.m;
	EXPECT_EQ(race.phase, 2u) << "the clearer did not set the bit again";
	EXPECT_EQ(race.in_window, race.node)
		<< "pop on cpu " << race.m << " of " << n
		<< " while a summary bit was being cleared missed the node on cpu "
		<< race.k;
}

// The scan skips the popping CPU's own bit, so a CPU that emptied its own head
// and then pops in vain, the only CPU that pops (one failing updater of a full
// map), must age that bit itself: within a few jiffies the summary is zero and
// an exhausted pop reads nothing of the hint but the summary's line.
namespace {
// Bit @c of the hint, in a version with one (else false).
template <typename T>
auto hint_bit(T *fl, unsigned int c) -> decltype(fl->nonempty, bool())
{
	return test_bit(c, fl->nonempty);
}
template <typename T>
auto hint_bit(T *fl, unsigned int c) -> decltype(fl->hint->bits, bool())
{
	return test_bit(c, fl->hint->bits);
}
template <typename T>
auto hint_bit(T *fl, unsigned int c) -> decltype(fl->maybe_nonempty, bool())
{
	return test_bit(c, fl->maybe_nonempty);
}
[[maybe_unused]] bool hint_bit(...)
{
	return false;
}
template <typename T, typename = void> struct has_maybe_nonempty : std::false_type {};
template <typename T>
struct has_maybe_nonempty<T, std::void_t<decltype(std::declval<T>().maybe_nonempty)>>
	: std::true_type {};
} // namespace

// The series: once a freelist is drained, from several CPUs, and every CPU
// popped in vain once, no bit is left set, so an exhausted pop reads the
// bitmap's words and no head.
TEST_P(PerCpuCount, ExhaustedFreelistForgetsEveryHead)
{
	const unsigned int n = GetParam();
	Freelist f(n, 2 * n + 1);

	if (!has_maybe_nonempty<struct pcpu_freelist>::value)
		GTEST_SKIP() << "no maybe_nonempty bitmap in this version";
	f.populate();
	for (size_t i = 0; i < f.nelems(); i++)
		ASSERT_NE(f.pop((i * 7) % n), nullptr) << "pop " << i;
	for (unsigned int c = 0; c < n; c++)
		ASSERT_EQ(f.pop(c), nullptr);
	for (unsigned int c = 0; c < n; c++)
		EXPECT_FALSE(hint_bit(f.fl(), c))
			<< "bit " << c << " of " << n << " still set";
}

TEST_P(PerCpuCount, ExhaustedPopAgesTheOwnBit)
{
	const unsigned int n = GetParam();

	unsigned long sum;

	{
		Freelist probe(1, 1);

		if (!summary_of(probe.fl(), &sum))
			GTEST_SKIP() << "no summary of the hint in this version";
	}
	for (unsigned int c : some_cpus(n)) {
		Freelist f(n, 1);

		pcpu_shim_jiffies = 1000;
		f.push(c, f.elem(0));
		ASSERT_EQ(f.pop(c), f.elem(0));
		for (int tick = 0; tick < 8; tick++, pcpu_shim_jiffies++)
			ASSERT_EQ(f.pop(c), nullptr);
		summary_of(f.fl(), &sum);
		EXPECT_EQ(sum, 0ul)
			<< "cpu " << c << " of " << n << " popped in vain for 8 "
			<< "jiffies after emptying its own head: its bit is "
			<< (hint_bit(f.fl(), c) ? "still set" : "clear");
		f.push(c, f.elem(0));
		ASSERT_EQ(f.pop((c + 1) % n), f.elem(0))
			<< "node pushed on cpu " << c << " after its bit aged";
	}
}

// A push whose own head cannot be taken puts the node on another head (or in
// the extralist): it must be found from every other CPU.
TEST_P(PerCpuCount, PushOntoAnotherHeadIsFound)
{
	const unsigned int n = GetParam();
	Freelist f(n, 1);

	for (unsigned int k : some_cpus(n)) {
		for (unsigned int c : some_cpus(n, k)) {
			push_own_busy(f, k, f.elem(0));
			ASSERT_EQ(f.pop(c), f.elem(0))
				<< "node pushed on cpu " << k
				<< " while its own head was busy, pop on cpu " << c;
			ASSERT_EQ(f.pop(c), nullptr);
		}
	}
}

// One CPU churns on its own head while another pops in vain whenever that
// head is empty (the storm of issue 26, with a jiffy that does not move):
// the churner writes nothing shared and the stormer takes no lock.
// v2 (a hint, s->nonempty, without the heads' own copy of their bit) tests and
// sets the shared word on a churner's push under a storm: the defect v3 fixes.
template <typename T, typename = void> struct has_own_bit : std::false_type {};
template <typename T>
struct has_own_bit<T, std::void_t<decltype(std::declval<T>().hinted)>>
	: std::true_type {};
template <typename T, typename = void> struct has_hint : std::false_type {};
template <typename T>
struct has_hint<T, std::void_t<decltype(std::declval<T>().nonempty)>>
	: std::true_type {};
template <typename T>
struct has_hint<T, std::void_t<decltype(std::declval<T>().hint)>>
	: std::true_type {};

TEST_P(PerCpuCount, StormLeavesTheChurnerAlone)
{
	const unsigned int n = GetParam();

	if (has_hint<struct pcpu_freelist>::value &&
	    !has_own_bit<struct pcpu_freelist_head>::value)
		GTEST_SKIP() << "v2's hint (lab variant freelist-v2): a churner's "
				"push writes the shared word under a storm, the "
				"defect v3 fixes";
	if (n < 2)
		return;
	for (unsigned int k : some_cpus(n)) {
		const unsigned int s = (k + n / 2) % n == k ? (k + 1) % n :
							    (k + n / 2) % n;
		Freelist f(n, 1);

		f.push(k, f.elem(0));
		struct pcpu_shim_stats churn = {}, storm = {};

		for (int round = 0; round < 100; round++) {
			LockCount c1;

			ASSERT_EQ(f.pop(k), f.elem(0));
			churn.shared_rmw += c1.shared_rmw();
			LockCount s1;

			for (int i = 0; i < 3; i++)
				ASSERT_EQ(f.pop(s), nullptr);
			storm.lock_acquired += s1.acquired();
			storm.shared_rmw += s1.shared_rmw();
			LockCount c2;

			f.push(k, f.elem(0));
			churn.shared_rmw += c2.shared_rmw();
		}
		EXPECT_EQ(churn.shared_rmw, 0u)
			<< "churner on cpu " << k << " of " << n
			<< ": atomic writes of a shared word under a storm";
		EXPECT_EQ(storm.lock_acquired, 0u)
			<< "stormer on cpu " << s << " locked the churner's empty head";
		EXPECT_EQ(storm.shared_rmw, 0u)
			<< "stormer on cpu " << s << " wrote the hint";
	}
}

// The back-off of lab variant freelist-v3-backoff: a CPU that finds its own
// head empty after another CPU took nodes from it waits once, before its pop
// goes on; no other pop waits (an exhausted pop, an own cycle, the thief).
template <typename T, typename = void> struct has_robbed : std::false_type {};
template <typename T>
struct has_robbed<T, std::void_t<decltype(std::declval<T>().robbed)>>
	: std::true_type {};

TEST_P(PerCpuCount, RobbedCpuBacksOffOncePerRobbery)
{
	const unsigned int n = GetParam();

	if (!has_robbed<struct pcpu_freelist_head>::value)
		GTEST_SKIP() << "no back-off in this version";
	{
		Freelist f(n, 1);
		unsigned long before = pcpu_shim_stats.delays;

		for (unsigned int c : some_cpus(n)) {
			ASSERT_EQ(f.pop(c), nullptr);
			f.push(c, f.elem(0));
			ASSERT_EQ(f.pop(c), f.elem(0));
			ASSERT_EQ(f.pop(c), nullptr);
		}
		EXPECT_EQ(pcpu_shim_stats.delays - before, 0ul)
			<< "exhausted pops and own cycles waited, with no robbery";
	}
	if (n < 2)
		return;
	for (unsigned int c : some_cpus(n)) {
		const unsigned int r = (c + 1) % n;
		Freelist f(n, 1);
		unsigned long before;

		f.push(c, f.elem(0));
		before = pcpu_shim_stats.delays;
		ASSERT_EQ(f.pop(r), f.elem(0));
		EXPECT_EQ(pcpu_shim_stats.delays - before, 0ul)
			<< "cpu " << r << " waited before robbing cpu " << c;
		before = pcpu_shim_stats.delays;
		ASSERT_EQ(f.pop(c), nullptr);
		EXPECT_EQ(pcpu_shim_stats.delays - before, 1ul)
			<< "cpu " << c << " of " << n << ", robbed by cpu " << r
			<< ", found its head empty";
		before = pcpu_shim_stats.delays;
		ASSERT_EQ(f.pop(c), nullptr);
		f.push(r, f.elem(0));
		ASSERT_EQ(f.pop(c), f.elem(0));
		EXPECT_EQ(pcpu_shim_stats.delays - before, 0ul)
			<< "cpu " << c << " waited twice for one robbery";
	}
}
