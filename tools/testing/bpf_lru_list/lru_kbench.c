// SPDX-License-Identifier: GPL-2.0-only
/*
 * The common LRU hash map's insert path in a real kernel, counted by the lab
 * variant lru-steal-counter (/sys/kernel/debug/bpf_lru_steal): how many
 * pops run the steal walk, and how many lists each walk visits.
 *
 *   lru_kbench [-s SECONDS] SCENARIO ENTRIES OPS
 *
 * churn-insert: CPU 1 updates and deletes its own keys (min(16, ENTRIES)),
 *   so its nodes stay on its own local lists; CPU 0 inserts new keys. With
 *   one online CPU, one thread on CPU 0 alternates the two roles.
 * insert: every thread (one per online CPU, at most 2) inserts new keys.
 *
 * A common-LRU map (BPF_MAP_TYPE_LRU_HASH, no flags) of ENTRIES entries is
 * first filled with ENTRIES keys from CPU 0, then each thread runs OPS ops,
 * or stops after SECONDS (default 60). Prints one JSON line: the counters'
 * deltas over the timed phase, the ops, the failed updates and the time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#define STAT_FILE "/sys/kernel/debug/bpf_lru_steal"
#define OWN_KEYS 16
#define BATCH 64

struct stat4 {
	unsigned long long pops, walks, visited, stolen;
};

struct worker {
	pthread_t tid;
	int cpu;
	int churn;		/* 1: churn own keys, 0: insert new keys, 2: both */
	unsigned long long ops, fails;
	double ns;		/* ns per op, the thread's own */
};

static int map_fd, entries, nr_online;
static unsigned long long nr_ops;
static double deadline;		/* CLOCK_MONOTONIC seconds */
static unsigned int next_key;	/* new keys: atomically taken */

static void die(const char *what)
{
	fprintf(stderr, "lru_kbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void read_stat(struct stat4 *s)
{
	FILE *f = fopen(STAT_FILE, "r");

	if (!f)
		die(STAT_FILE " (a kernel of lab variant lru-steal-counter, debugfs mounted?)");
	if (fscanf(f, "pops %llu walks %llu visited %llu stolen %llu",
		   &s->pops, &s->walks, &s->visited, &s->stolen) != 4) {
		errno = EINVAL;
		die(STAT_FILE);
	}
	fclose(f);
}

/* the possible CPUs: "0" or "0-N" in sysfs (the lab's VMs number them from 0) */
static int nr_possible(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int lo, hi, n;

	if (!f)
		die("/sys/devices/system/cpu/possible");
	n = fscanf(f, "%d-%d", &lo, &hi);
	fclose(f);
	if (n < 1 || lo != 0) {
		errno = EINVAL;
		die("/sys/devices/system/cpu/possible");
	}
	return n == 2 ? hi + 1 : 1;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* BATCH new keys in one syscall; a failed update (no node: -ENOMEM) is counted and skipped */
static void insert_new(struct worker *w, unsigned int n)
{
	unsigned int keys[BATCH];
	unsigned long long vals[BATCH];
	unsigned int base = __atomic_fetch_add(&next_key, n, __ATOMIC_RELAXED);
	unsigned int i = 0, count;

	for (count = 0; count < n; count++) {
		keys[count] = base + count;
		vals[count] = w->cpu;
	}
	while (i < n) {
		count = n - i;
		if (!bpf_map_update_batch(map_fd, keys + i, vals + i, &count, NULL))
			break;
		if (errno != ENOMEM)
			die("bpf_map_update_batch");
		w->fails++;
		i += count + 1;
	}
	w->ops += n;
}

/* update then delete one of the thread's own keys: its node returns to this CPU's lists */
static void churn_own(struct worker *w, unsigned long long i)
{
	unsigned int key = 0x80000000u | (w->cpu << 16) | (i % OWN_KEYS);
	unsigned long long val = i;

	if (bpf_map_update_elem(map_fd, &key, &val, BPF_ANY)) {
		if (errno != ENOMEM)
			die("bpf_map_update_elem");
		w->fails++;
	} else if (bpf_map_delete_elem(map_fd, &key) && errno != ENOENT) {
		die("bpf_map_delete_elem");
	}
	w->ops++;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	unsigned long long i;
	double t0;

	pin(w->cpu);
	t0 = now();
	for (i = 0; w->ops < nr_ops; i++) {
		if ((i & 63) == 0 && now() > deadline)
			break;
		if (w->churn)
			churn_own(w, i);
		if (w->churn != 1)
			insert_new(w, w->churn ? 1 : BATCH);
	}
	w->ns = w->ops ? (now() - t0) * 1e9 / w->ops : 0;
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker w[2] = {};
	struct stat4 a, b;
	double seconds = 60, t;
	const char *scenario;
	int opt, i, nr;

	while ((opt = getopt(argc, argv, "s:")) != -1) {
		if (opt != 's')
			goto usage;
		seconds = atof(optarg);
	}
	if (argc - optind != 3)
		goto usage;
	scenario = argv[optind];
	entries = atoi(argv[optind + 1]);
	nr_ops = strtoull(argv[optind + 2], NULL, 0);
	if (entries < 1 || !nr_ops || seconds <= 0 ||
	    (strcmp(scenario, "churn-insert") && strcmp(scenario, "insert")))
		goto usage;
	nr_online = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;

	map_fd = bpf_map_create(BPF_MAP_TYPE_LRU_HASH, "lru_kbench", sizeof(unsigned int),
				sizeof(unsigned long long), entries, NULL);
	if (map_fd < 0)
		die("bpf_map_create");
	/* fill: every node leaves the global free list once, as in a map in service */
	w[0].cpu = 0;
	pin(0);
	deadline = now() + seconds;
	for (i = 0; i < entries; i += BATCH)
		insert_new(&w[0], BATCH);
	w[0].ops = w[0].fails = 0;

	nr = nr_online;
	w[0].churn = 0;
	if (nr == 1)
		w[0].churn = strcmp(scenario, "churn-insert") ? 0 : 2;
	if (nr == 2) {
		w[1].cpu = 1;
		w[1].churn = !strcmp(scenario, "churn-insert");
	}
	read_stat(&a);
	t = now();
	deadline = t + seconds;
	for (i = 0; i < nr; i++)
		if (pthread_create(&w[i].tid, NULL, work, &w[i]))
			die("pthread_create");
	for (i = 0; i < nr; i++)
		pthread_join(w[i].tid, NULL);
	t = now() - t;
	read_stat(&b);

	printf("{\"scenario\": \"%s\", \"entries\": %d, \"online\": %d, \"possible\": %d, "
	       "\"seconds\": %.3f, \"pops\": %llu, \"walks\": %llu, \"visited\": %llu, "
	       "\"stolen\": %llu",
	       scenario, entries, nr, nr_possible(), t, b.pops - a.pops,
	       b.walks - a.walks, b.visited - a.visited, b.stolen - a.stolen);
	for (i = 0; i < nr; i++)
		printf(", \"cpu%d\": {\"role\": \"%s\", \"ops\": %llu, \"fails\": %llu, \"ns_op\": %.1f}",
		       w[i].cpu, w[i].churn == 2 ? "both" : w[i].churn ? "churner" : "inserter",
		       w[i].ops, w[i].fails, w[i].ns);
	printf("}\n");
	return 0;
usage:
	fprintf(stderr, "usage: lru_kbench [-s SECONDS] churn-insert|insert ENTRIES OPS\n");
	return 2;
}
