// SPDX-License-Identifier: GPL-2.0-only
//
// A preallocated LRU hash map driving kernel/bpf/bpf_lru_list.c the way
// kernel/bpf/hashtab.c does: prealloc_init() (bpf_lru_init(), then
// bpf_lru_populate() of every element), htab_lru_map_update_elem() (pop a
// node before the bucket lock, free the old element after it),
// htab_lru_map_delete_elem(), a lookup that sets the node's ref bit, and
// htab_lru_map_delete_node(), the del_from_htab callback with which the LRU
// evicts. Buckets have spinlocks of their own, not counted; a lookup takes
// its bucket's lock where the kernel walks the bucket under RCU.
//
// Each pop is counted (PopStats): its locks from the shim, and whether it
// walked other CPUs' lists. A pop takes its own CPU's local-list lock once;
// it took a second local-list lock only if it ran the steal walk.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// tools/include/linux/list.h names parameters "new": C, not C++
#define new new_node
extern "C" {
#include "bpf_lru_list.h"
}
#undef new
#undef min	/* tools/include's, in the way of std::min and std::max */
#undef max

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lru_htab {

struct Elem {
	Elem *next;			// the bucket's chain, under its lock
	uint64_t key;
	struct bpf_lru_node lru_node;
	uint32_t hash;
};

// what the pops of one thread (one CPU) did
struct PopStats {
	uint64_t pops = 0, fails = 0;	// fails: the pop returned NULL
	uint64_t tsc = 0;		// rdtsc ticks inside bpf_lru_pop_free()
	uint64_t locks = 0, remote = 0;	// rqspinlocks, of them another CPU's
	uint64_t global = 0;		// of them the global list's (a refill)
	uint64_t walks = 0;		// pops that ran the steal walk
	uint64_t walk_locks = 0;	// local-list locks those walks took
	uint64_t stolen = 0;		// nodes the walks returned

	void add(const PopStats &o)
	{
		pops += o.pops; fails += o.fails; tsc += o.tsc; locks += o.locks;
		remote += o.remote; global += o.global; walks += o.walks; walk_locks += o.walk_locks;
		stolen += o.stolen;
	}
};

// keys the calling thread's pops evicted (del_from_htab() that found its element)
inline thread_local uint64_t evictions;
// of them, keys whose node had its ref bit set: referenced since the LRU last moved it
inline thread_local uint64_t ref_evictions;
// keys the calling thread added to the map minus those it deleted or evicted
inline thread_local int64_t live_delta;

inline uint64_t ticks() { return __rdtsc(); }

// bpf_lru_pop_free() on the calling thread's CPU, counted into @st
inline struct bpf_lru_node *counted_pop(struct bpf_lru *lru, uint32_t hash,
					PopStats *st)
{
	struct lru_shim_stats a = lru_shim_stats;
	uint64_t t0 = ticks();
	struct bpf_lru_node *node = bpf_lru_pop_free(lru, hash);
	uint64_t t1 = ticks();
	const struct lru_shim_stats &b = lru_shim_stats;
	unsigned long local = b.local_locks - a.local_locks;

	st->pops++;
	st->fails += !node;
	st->tsc += t1 - t0;
	st->locks += b.locks - a.locks;
	st->remote += b.remote_locks - a.remote_locks;
	st->global += b.locks - a.locks - local;
	if (!lru->percpu && local >= 2) {
		// entry lock + the walk's locks (+ the own lock to keep a stolen node)
		st->walks++;
		st->stolen += !!node;
		st->walk_locks += local - 1 - !!node;
	}
	return node;
}

inline uint32_t hash_key(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (uint32_t)k;
}

class Htab {
public:
	// @percpu: BPF_F_NO_COMMON_LRU; @max_entries as hashtab.c has adjusted it
	Htab(uint32_t max_entries, bool percpu) : elems_(max_entries)
	{
		uint32_t n = 1;

		while (n < max_entries)
			n <<= 1;
		buckets_ = std::vector<Bucket>(n);
		mask_ = n - 1;
		err_ = bpf_lru_init(&lru, percpu,
				    offsetof(Elem, hash) - offsetof(Elem, lru_node),
				    del_from_htab, this);
		if (!err_)
			bpf_lru_populate(&lru, elems_.data(), offsetof(Elem, lru_node),
					 sizeof(Elem), max_entries);
	}
	~Htab()
	{
		if (!err_)
			bpf_lru_destroy(&lru);
	}
	Htab(const Htab &) = delete;
	Htab &operator=(const Htab &) = delete;

	bool ok() const { return !err_; }

	// htab_lru_map_update_elem(..., BPF_ANY): 0 or -ENOMEM
	int update(uint64_t key, PopStats *st)
	{
		uint32_t hash = hash_key(key);
		struct bpf_lru_node *node = counted_pop(&lru, hash, st);
		Bucket &b = buckets_[hash & mask_];
		Elem *e, *old;

		if (!node)
			return -ENOMEM;
		e = container_of(node, Elem, lru_node);
		e->key = key;
		b.lock();
		old = unlink(b, key);
		e->next = b.head;
		b.head = e;
		if (old)
			bpf_lru_node_set_ref(&e->lru_node);
		else
			live_delta++;
		b.unlock();
		if (old)
			bpf_lru_push_free(&lru, &old->lru_node);
		return 0;
	}

	// htab_lru_map_delete_elem(): true if @key was there
	bool remove(uint64_t key)
	{
		Bucket &b = buckets_[hash_key(key) & mask_];
		Elem *e;

		b.lock();
		e = unlink(b, key);
		b.unlock();
		if (e) {
			live_delta--;
			bpf_lru_push_free(&lru, &e->lru_node);
		}
		return e;
	}

	// a lookup that hits sets the ref bit, as the BPF program's lookup does
	bool lookup(uint64_t key)
	{
		Bucket &b = buckets_[hash_key(key) & mask_];
		Elem *e;

		b.lock();
		for (e = b.head; e && e->key != key; e = e->next)
			;
		if (e)
			bpf_lru_node_set_ref(&e->lru_node);
		b.unlock();
		return e;
	}

	// the keys in the map (not concurrently with updates)
	size_t count() const
	{
		size_t n = 0;

		for (const Bucket &b : buckets_)
			for (Elem *e = b.head; e; e = e->next)
				n++;
		return n;
	}

	bool in_map(const Elem *x) const
	{
		for (Elem *e = buckets_[x->hash & mask_].head; e; e = e->next)
			if (e == x)
				return true;
		return false;
	}

	std::vector<Elem> &elems() { return elems_; }

	struct bpf_lru lru;

private:
	struct Bucket {
		std::atomic<int> locked{0};
		Elem *head = nullptr;

		Bucket() = default;
		Bucket(const Bucket &) : Bucket() {}
		void lock()
		{
			while (locked.exchange(1, std::memory_order_acquire))
				while (locked.load(std::memory_order_relaxed))
					__builtin_ia32_pause();
		}
		void unlock() { locked.store(0, std::memory_order_release); }
	};

	static Elem *unlink(Bucket &b, uint64_t key)
	{
		for (Elem **p = &b.head; *p; p = &(*p)->next) {
			Elem *e = *p;

			if (e->key == key) {
				*p = e->next;
				return e;
			}
		}
		return nullptr;
	}

	// htab_lru_map_delete_node(): evict @node's element if it is in the map
	static bool del_from_htab(void *arg, struct bpf_lru_node *node)
	{
		Htab *h = static_cast<Htab *>(arg);
		Elem *tgt = container_of(node, Elem, lru_node);
		Bucket &b = h->buckets_[tgt->hash & h->mask_];
		bool found = false;

		b.lock();
		for (Elem **p = &b.head; *p; p = &(*p)->next) {
			if (*p == tgt) {
				*p = tgt->next;
				found = true;
				break;
			}
		}
		b.unlock();
		evictions += found;
		live_delta -= found;
		ref_evictions += found && __atomic_load_n(&node->ref, __ATOMIC_RELAXED);
		return found;
	}

	std::vector<Elem> elems_;
	std::vector<Bucket> buckets_;
	uint32_t mask_ = 0;
	int err_ = 0;
};

}  // namespace lru_htab
