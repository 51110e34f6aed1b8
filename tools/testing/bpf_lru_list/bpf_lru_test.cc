// SPDX-License-Identifier: GPL-2.0-only
//
// Behaviour of kernel/bpf/bpf_lru_list.c, compiled unmodified, driven as
// kernel/bpf/hashtab.c drives it (lru_htab.h). A thread plays a CPU by
// setting lru_shim_cpu; possible CPUs are set per test.

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <thread>

#include "lru_htab.h"

using lru_htab::Elem;
using lru_htab::Htab;
using lru_htab::PopStats;

namespace {

void possible(unsigned int n) { nr_cpu_ids = n; }
void on_cpu(int cpu) { lru_shim_cpu = cpu; }

// Every node is on exactly one list, the map's elements on the LRU's
// active/inactive lists or a CPU's pending list; returns how many nodes
// the lists hold.
size_t check_lists(Htab &h)
{
	struct bpf_common_lru *clru = &h.lru.common_lru;
	std::set<struct bpf_lru_node *> seen;
	size_t in_map = 0;
	auto see = [&](struct bpf_lru_node *n, bool holds_keys) {
		EXPECT_TRUE(seen.insert(n).second) << "node on two lists";
		Elem *e = container_of(n, Elem, lru_node);
		if (h.in_map(e)) {
			EXPECT_TRUE(holds_keys) << "a key's node on a free list";
			in_map++;
		}
	};
	struct bpf_lru_node *n;

	for (int t = 0; t < NR_BPF_LRU_LIST_T; t++)
		list_for_each_entry(n, &clru->lru_list.lists[t], list)
			see(n, t != BPF_LRU_LIST_T_FREE);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct bpf_lru_locallist *loc = per_cpu_ptr(clru->local_list, cpu);

		list_for_each_entry(n, &loc->pending_list, list)
			see(n, true);
		for (struct llist_node *l = loc->free_llist.first; l; l = l->next)
			see(container_of(l, struct bpf_lru_node, llist), false);
	}
	EXPECT_EQ(in_map, h.count()) << "a key's node on no list";
	return seen.size();
}

// A CPU whose own list and the LRU's lists are empty takes the node
// another CPU freed.
TEST(Steal, PopFindsNodeFreedOnAnotherCpu)
{
	PopStats st;

	possible(4);
	Htab h(1, false);
	ASSERT_TRUE(h.ok());
	on_cpu(1);
	struct bpf_lru_node *n = lru_htab::counted_pop(&h.lru, 1, &st);
	ASSERT_NE(n, nullptr);
	bpf_lru_push_free(&h.lru, n);		// onto CPU 1's free llist

	on_cpu(0);
	EXPECT_EQ(lru_htab::counted_pop(&h.lru, 2, &st), n)
		<< "CPU 0 did not find the node CPU 1 freed";
	EXPECT_EQ(n->cpu, 0);
	EXPECT_EQ(st.stolen, 1u);
	EXPECT_EQ(check_lists(h), 1u);
}

// The walk also evicts another CPU's pending (in use) key.
TEST(Steal, InsertEvictsKeyPendingOnAnotherCpu)
{
	PopStats st;

	possible(4);
	Htab h(1, false);
	ASSERT_TRUE(h.ok());
	on_cpu(1);
	ASSERT_EQ(h.update(7, &st), 0);
	on_cpu(0);
	ASSERT_EQ(h.update(8, &st), 0) << "CPU 0 could not evict CPU 1's key";
	EXPECT_FALSE(h.lookup(7));
	EXPECT_TRUE(h.lookup(8));
	EXPECT_EQ(st.stolen, 1u);
	EXPECT_EQ(check_lists(h), 1u);
}

// The control: once a CPU holds free nodes, its pop and its push each take
// only its own local list's lock.
TEST(Own, PopAndPushTakeOnlyTheOwnLock)
{
	PopStats st;

	possible(64);
	Htab h(65536, false);
	ASSERT_TRUE(h.ok());
	on_cpu(3);
	struct bpf_lru_node *n = lru_htab::counted_pop(&h.lru, 1, &st);	// refills
	ASSERT_NE(n, nullptr);
	bpf_lru_push_free(&h.lru, n);
	st = PopStats();
	for (int i = 0; i < 1000; i++) {
		struct lru_shim_stats before = lru_shim_stats;

		n = lru_htab::counted_pop(&h.lru, i, &st);
		ASSERT_NE(n, nullptr);
		bpf_lru_push_free(&h.lru, n);
		ASSERT_EQ(lru_shim_stats.locks - before.locks, 2u) << "op " << i;
		ASSERT_EQ(lru_shim_stats.remote_locks, before.remote_locks);
	}
	EXPECT_EQ(st.locks, 1000u);
	EXPECT_EQ(check_lists(h), 65536u);
}

// At least 3 CPUs race inserts, deletes and lookups on a map smaller than
// what their local lists can hold, so pops steal. Afterwards no node is
// lost, and every insert of one CPU finds a node again.
TEST(Race, NothingLostAfterRacingThreads)
{
	const int threads = 4;
	const uint32_t entries = 8;
	long ops = getenv("LRU_RACE_OPS") ? atol(getenv("LRU_RACE_OPS")) : 200000;
	std::vector<PopStats> st(threads);
	std::vector<std::thread> t;

	possible(16);
	Htab h(entries, false);
	ASSERT_TRUE(h.ok());
	for (int cpu = 0; cpu < threads; cpu++)
		t.emplace_back([&, cpu] {
			std::mt19937_64 rnd(cpu);

			on_cpu(cpu);
			for (long i = 0; i < ops; i++) {
				uint64_t key = rnd() % 32;

				switch (rnd() % 4) {
				case 0:
					h.remove(key);
					break;
				case 1:
					h.lookup(key);
					break;
				default:
					h.update(key, &st[cpu]);
				}
			}
		});
	for (auto &x : t)
		x.join();
	PopStats all;
	for (auto &s : st)
		all.add(s);
	EXPECT_GT(all.stolen, 0u) << "the race never stole: not the case tested";
	EXPECT_EQ(check_lists(h), entries);

	// Every insert finds a node. (Not every key stays: the other CPUs'
	// free lists keep theirs, and CPU 0's refill evicts before it steals.)
	on_cpu(0);
	for (uint64_t k = 1000; k < 1000 + 4 * entries; k++)
		EXPECT_EQ(h.update(k, &st[0]), 0) << "key " << k;
	EXPECT_EQ(check_lists(h), entries);
	EXPECT_GT(h.count(), 0u);
}

// tools/testing/selftests/bpf/test_lru_map.c's test_lru_sanity3 on a common
// LRU, as the selftest runs it at @ncpus possible CPUs: fill a map of 256
// (2 x LOCAL_FREE_TARGET) from one CPU, reference all keys but the last
// batch, insert a batch of new keys: exactly the unreferenced keys go.
// The selftest's batch is (128 / ncpus) / 2 (its __tgt_size(128)).
class LruMapSanity3 : public testing::TestWithParam<unsigned int> {};

TEST_P(LruMapSanity3, NewKeysReplaceTheUnreferenced)
{
	const unsigned int ncpus = GetParam(), map_size = 256;
	const unsigned int batch = (128 / ncpus) / 2;
	std::set<uint64_t> expect;
	PopStats st;

	possible(ncpus);
	Htab h(map_size, false);
	ASSERT_TRUE(h.ok());
	on_cpu(0);
	for (uint64_t k = 1; k <= map_size; k++)
		ASSERT_EQ(h.update(k, &st), 0);
	for (uint64_t k = 1; k <= map_size - batch; k++) {
		ASSERT_TRUE(h.lookup(k));
		expect.insert(k);
	}
	for (uint64_t k = map_size + 1; k <= map_size + batch; k++) {
		ASSERT_EQ(h.update(k, &st), 0);
		expect.insert(k);
	}
	for (uint64_t k = 1; k <= map_size + batch; k++)
		EXPECT_EQ(h.lookup(k), expect.count(k) == 1)
			<< "key " << k << " at " << ncpus << " possible CPUs, target_free "
			<< h.lru.target_free << ", nr_scans " << h.lru.nr_scans;
	EXPECT_EQ(h.count(), expect.size());
}

INSTANTIATE_TEST_SUITE_P(Cpus, LruMapSanity3, testing::Values(1u, 2u, 4u, 8u, 16u, 32u, 64u));

}  // namespace
