// SPDX-License-Identifier: GPL-2.0
/*
 * nmi_stackmap: pop a full stack map's freelist from NMI context.
 *
 * A machine without a PMU runs no perf_event program in NMI. This one takes
 * its NMIs from the kernel's all-CPU backtrace (sysrq 'l'): a child pinned to
 * one CPU writes 'l' to /proc/sysrq-trigger in a loop, which sends an NMI to
 * the other online CPUs. There this task, pinned, pops the map (a syscall
 * traced by task_stackid) and pushes it (a delete) in a loop, so that the
 * NMIs' pops meet its own, and may find its head's lock held. Prints the counts as KTAP and fails if no
 * bpf_get_stackid() ran in NMI or none of them found the map's freelist empty.
 *
 *   nmi_stackmap [-d SECONDS] [-c CPU] [-t CPU]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "nmi_stackmap.h"
#include "nmi_stackmap.skel.h"

static const char *const ctx_name[NR_CTX] = { "nmi", "task" };

static void print_usage(void)
{
	fprintf(stderr,
		"usage: nmi_stackmap [-d SECONDS] [-c TASK_CPU] [-t TRIGGER_CPU]\n"
		"  -d  seconds to run (default 5)\n"
		"  -c  CPU of the task that pops and pushes the map (default 1)\n"
		"  -t  CPU that sends the NMIs with sysrq 'l' (default 0)\n");
	exit(2);
}

static int parse_number(const char *opt, const char *s, int min, int max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max) {
		fprintf(stderr, "nmi_stackmap: %s %s: expected a number from %d to %d\n",
			opt, s, min, max);
		exit(2);
	}
	return v;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "nmi_stackmap: CPU %d: %s\n", cpu, strerror(errno));
		exit(1);
	}
}

/* The NMIs this machine has taken, over all CPUs (/proc/interrupts). */
static unsigned long long nmis(void)
{
	unsigned long long sum = 0, n;
	char line[4096], *p, *end;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, "NMI:", 4))
			continue;
		for (p += 4;; p = end) {
			n = strtoull(p, &end, 10);
			if (end == p)
				break;
			sum += n;
		}
	}
	fclose(f);
	return sum;
}

static void send_nmis(int cpu)
{
	int fd;

	pin(cpu);
	fd = open("/proc/sysrq-trigger", O_WRONLY);
	if (fd < 0) {
		perror("nmi_stackmap: /proc/sysrq-trigger");
		_exit(1);
	}
	for (;;)
		if (write(fd, "l", 1) != 1) {
			perror("nmi_stackmap: /proc/sysrq-trigger");
			_exit(1);
		}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long long total[NR_CTX][NR_OUT] = {}, nmi0, deletes = 0, loops = 0;
	int seconds = 5, task_cpu = 1, trigger_cpu = 0, ncpus, opt, fd, status;
	struct nmi_stackmap *skel;
	double start, elapsed;
	__u32 key, k;
	pid_t child;

	ncpus = libbpf_num_possible_cpus();
	while ((opt = getopt(argc, argv, "d:c:t:h")) != -1) {
		switch (opt) {
		case 'd':
			seconds = parse_number("-d", optarg, 1, 3600);
			break;
		case 'c':
			task_cpu = parse_number("-c", optarg, 0, CPU_SETSIZE - 1);
			break;
		case 't':
			trigger_cpu = parse_number("-t", optarg, 0, CPU_SETSIZE - 1);
			break;
		default:
			print_usage();
		}
	}
	if (optind != argc)
		print_usage();
	if (task_cpu == trigger_cpu) {
		fprintf(stderr, "nmi_stackmap: -c and -t name the same CPU, %d\n", task_cpu);
		return 2;
	}
	if (ncpus <= 0) {
		fprintf(stderr, "nmi_stackmap: possible CPUs: %s\n", strerror(-ncpus));
		return 1;
	}

	skel = nmi_stackmap__open();
	if (!skel) {
		fprintf(stderr, "nmi_stackmap: open: %s\n", strerror(errno));
		return 1;
	}
	skel->rodata->task_pid = getpid();
	skel->rodata->task_syscall = SYS_getppid;
	if (nmi_stackmap__load(skel) || nmi_stackmap__attach(skel)) {
		fprintf(stderr, "nmi_stackmap: load and attach: %s\n", strerror(errno));
		nmi_stackmap__destroy(skel);
		return 1;
	}
	fd = bpf_map__fd(skel->maps.stacks);

	pin(task_cpu);
	nmi0 = nmis();
	child = fork();
	if (child < 0) {
		perror("nmi_stackmap: fork");
		nmi_stackmap__destroy(skel);
		return 1;
	}
	if (child == 0)
		send_nmis(trigger_cpu);

	/*
	 * Pop (one of getppid()'s stacks that the map does not hold) on every
	 * loop, push (a delete) on every fourth: the freelist stays empty but
	 * for a node now and then, which the task and the NMIs race for.
	 */
	start = now();
	for (k = 0;; k = (k + 1) % NR_STACKS) {
		syscall(SYS_getppid);
		if (!(loops & 3) && !bpf_map_delete_elem(fd, &k))
			deletes++;
		if (!(++loops & 255) && now() - start >= seconds)
			break;
	}
	elapsed = now() - start;
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	nmi0 = nmis() - nmi0;

	for (key = 0; key < NR_CTX * NR_OUT; key++) {
		unsigned long long v[ncpus];
		int cpu;

		if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.outcomes), &key, v)) {
			perror("nmi_stackmap: outcomes");
			nmi_stackmap__destroy(skel);
			return 1;
		}
		for (cpu = 0; cpu < ncpus; cpu++)
			total[key / NR_OUT][key % NR_OUT] += v[cpu];
	}
	nmi_stackmap__destroy(skel);

	printf("TAP version 13\n1..1\n");
	printf("# %.1f s: task on CPU %d (%llu loops, %llu deletes), ", elapsed, task_cpu, loops,
	       deletes);
	printf("sysrq 'l' from CPU %d, %llu NMIs\n", trigger_cpu, nmi0);
	for (k = 0; k < NR_CTX; k++) {
		unsigned long long *t = total[k];
		unsigned long long calls = t[OUT_OK] + t[OUT_NOMEM] + t[OUT_OTHER];

		printf("# %s: %llu bpf_get_stackid() (%.0f/s): ", ctx_name[k], calls,
		       calls / elapsed);
		printf("%llu ok, %llu -ENOMEM, %llu other errors\n", t[OUT_OK], t[OUT_NOMEM],
		       t[OUT_OTHER]);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status)) {
		printf("not ok 1 nmi_stackmap: the sysrq child failed\n");
		return 1;
	}
	if (!total[CTX_NMI][OUT_NOMEM]) {
		printf("not ok 1 nmi_stackmap: %s\n",
		       "no bpf_get_stackid() in NMI found the freelist empty");
		return 1;
	}
	printf("ok 1 nmi_stackmap: %llu pops on an empty freelist in NMI\n",
	       total[CTX_NMI][OUT_NOMEM]);
	return 0;
}
