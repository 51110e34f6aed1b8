/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel's lockless list: add from anywhere, delete the first under a lock. */
#ifndef LRU_SHIM_LLIST_H
#define LRU_SHIM_LLIST_H
#include <stddef.h>

struct llist_node {
	struct llist_node *next;
};

struct llist_head {
	struct llist_node *first;
};

#define init_llist_head(h)	__atomic_store_n(&(h)->first, NULL, __ATOMIC_RELAXED)

static inline bool llist_add(struct llist_node *node, struct llist_head *head)
{
	struct llist_node *first = __atomic_load_n(&head->first, __ATOMIC_RELAXED);

	do {
		__atomic_store_n(&node->next, first, __ATOMIC_RELAXED);
	} while (!__atomic_compare_exchange_n(&head->first, &first, node, false,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	return !first;
}

static inline struct llist_node *llist_del_first(struct llist_head *head)
{
	struct llist_node *entry = __atomic_load_n(&head->first, __ATOMIC_ACQUIRE);
	struct llist_node *next;

	do {
		if (!entry)
			return NULL;
		next = __atomic_load_n(&entry->next, __ATOMIC_RELAXED);
	} while (!__atomic_compare_exchange_n(&head->first, &entry, next, false,
					      __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE));
	return entry;
}
#endif
