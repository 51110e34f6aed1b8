// Probe 2: both CPUs fail inserts in a loop across the moment head 0 ages.
#define _GNU_SOURCE
#include <errno.h>
#include <linux/bpf.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <stdint.h>

#define N 64
static int fd;
static volatile int hammer, stopped = 1, quit;
static long fails1;

static int sys_bpf(int cmd, union bpf_attr *a) { return syscall(__NR_bpf, cmd, a, sizeof(*a)); }
static int upd(uint32_t k) { uint64_t v = 0; union bpf_attr a; memset(&a, 0, sizeof(a)); a.map_fd = fd; a.key = (uintptr_t)&k; a.value = (uintptr_t)&v; a.flags = BPF_NOEXIST; return sys_bpf(BPF_MAP_UPDATE_ELEM, &a) ? -errno : 0; }
static int del(uint32_t k) { union bpf_attr a; memset(&a, 0, sizeof(a)); a.map_fd = fd; a.key = (uintptr_t)&k; return sys_bpf(BPF_MAP_DELETE_ELEM, &a) ? -errno : 0; }
static void pin(int c) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(c, &s); if (pthread_setaffinity_np(pthread_self(), sizeof(s), &s)) { perror("pin"); exit(2); } }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

static void *side(void *arg)
{
	pin(1);
	while (!quit) {
		while (!hammer && !quit) ;
		stopped = 0;
		while (hammer) {
			if (upd(N + 2) != -E2BIG) { fprintf(stderr, "side insert\n"); exit(2); }
			fails1++;
		}
		stopped = 1;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200;
	double age = (argc > 2 ? atoi(argv[2]) : 20000) * 1e-6;
	long fails0 = 0;
	union bpf_attr a; memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_HASH; a.key_size = 4; a.value_size = 8; a.max_entries = N;
	fd = sys_bpf(BPF_MAP_CREATE, &a);
	if (fd < 0) { perror("map_create"); return 2; }
	pin(0);
	for (uint32_t k = 0; k < N; k++) if (upd(k)) { fprintf(stderr, "fill %u\n", k); return 2; }
	usleep(age * 1e6);
	if (upd(N) != -E2BIG) { fprintf(stderr, "not full\n"); return 2; }
	pthread_t t;
	pthread_create(&t, NULL, side, NULL);
	for (int r = 1; r <= rounds; r++) {
		uint32_t k = r % N;
		if (del(k) || upd(k)) { fprintf(stderr, "round %d: cycle on cpu0 failed\n", r); return 2; }
		hammer = 1;
		while (stopped) ;
		double end = now() + age;
		while (now() < end) { if (upd(N) != -E2BIG) { fprintf(stderr, "main insert\n"); return 2; } fails0++; }
		hammer = 0;
		while (!stopped) ;
		if (del(k)) { fprintf(stderr, "round %d: delete failed\n", r); return 2; }
		pin(1);
		int e = upd(k);
		pin(0);
		if (e) { printf("CAUGHT round %d: insert on cpu1 after a delete on cpu0: %d (fails %ld %ld)\n", r, e, fails0, fails1); quit = 1; hammer = 0; return 1; }
	}
	printf("not caught in %d rounds (fails %ld %ld)\n", rounds, fails0, fails1);
	quit = 1;
	return 0;
}
