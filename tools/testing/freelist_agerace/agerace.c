// Standalone probe: how often do two CPUs age the same freelist head at once?
#define _GNU_SOURCE
#include <errno.h>
#include <linux/bpf.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdint.h>

#define N 64
static int fd;
static volatile int go, ready[2], done[2];
static int skew;
static volatile uint64_t t0, t1;
static inline uint64_t tsc(void) { unsigned lo, hi; __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi)); return ((uint64_t)hi << 32) | lo; }

static int sys_bpf(int cmd, union bpf_attr *a) { return syscall(__NR_bpf, cmd, a, sizeof(*a)); }
static int upd(uint32_t k) { uint64_t v = 0; union bpf_attr a; memset(&a, 0, sizeof(a)); a.map_fd = fd; a.key = (uintptr_t)&k; a.value = (uintptr_t)&v; a.flags = BPF_NOEXIST; return sys_bpf(BPF_MAP_UPDATE_ELEM, &a) ? -errno : 0; }
static int del(uint32_t k) { union bpf_attr a; memset(&a, 0, sizeof(a)); a.map_fd = fd; a.key = (uintptr_t)&k; return sys_bpf(BPF_MAP_DELETE_ELEM, &a) ? -errno : 0; }
static void pin(int c) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(c, &s); if (pthread_setaffinity_np(pthread_self(), sizeof(s), &s)) { perror("pin"); exit(2); } }

static void *side(void *arg)
{
	int id = (intptr_t)arg, seen = 0;
	pin(id);
	for (;;) {
		while (go == seen) ;
		seen = go;
		if (seen < 0) return NULL;
		if (id == 0) for (volatile int i = 0; i < (skew > 0 ? skew : 0); i++) ;
		else for (volatile int i = 0; i < (skew < 0 ? -skew : 0); i++) ;
		t1 = tsc();
		int e = upd(N + 1 + id);
		if (e != -E2BIG) { fprintf(stderr, "extra insert: %d\n", e); exit(2); }
		__atomic_store_n(&done[id], seen, __ATOMIC_RELEASE);
	}
}

static int setup(int age_us)
{
	union bpf_attr a; memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_HASH; a.key_size = 4; a.value_size = 8; a.max_entries = N;
	int nfd = sys_bpf(BPF_MAP_CREATE, &a);
	if (nfd < 0) { perror("map_create"); return 2; }
	if (fd > 0) close(fd);
	fd = nfd;
	for (uint32_t k = 0; k < N; k++) if (upd(k)) { fprintf(stderr, "fill %u\n", k); return 2; }
	usleep(age_us);
	if (upd(N) != -E2BIG) { fprintf(stderr, "not full\n"); return 2; }
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200, age_us = argc > 2 ? atoi(argv[2]) : 20000, span = argc > 3 ? atoi(argv[3]) : 2000;
	int catches = 0, lo = argc > 4 ? atoi(argv[4]) : -span;
	pin(0);
	if (setup(age_us)) return 2;
	pthread_t t;
	pthread_create(&t, NULL, side, (void *)1);
	for (int r = 1; r <= rounds; r++) {
		uint32_t k = r % N;
		/* head 0: empty, hinted, its bit set */
		pin(0);
		if (del(k) || upd(k)) { fprintf(stderr, "round %d: cycle on cpu0 failed\n", r); return 2; }
		usleep(age_us);
		skew = lo + (r * 7919) % (span + 1);
		go = r;
		for (volatile int i = 0; i < (skew > 0 ? skew : 0); i++) ;
		t0 = tsc();
		if (upd(N) != -E2BIG) { fprintf(stderr, "extra insert on cpu0\n"); return 2; }
		while (__atomic_load_n(&done[1], __ATOMIC_ACQUIRE) != r) ;
		if (getenv("JITTER")) printf("skew %d dt %lld\n", skew, (long long)(t1 - t0));
		/* a delete on cpu0 must be found by an insert on cpu1 */
		if (del(k)) { fprintf(stderr, "round %d: delete failed\n", r); return 2; }
		pin(1);
		int e = upd(k);
		pin(0);
		if (e) { printf("CAUGHT round %d skew %d: %d\n", r, skew, e); catches++; if (setup(age_us)) return 2; }
	}
	printf("%d catches in %d rounds, skew %d to %d\n", catches, rounds, lo, lo + span);
	go = -1;
	return 0;
}
