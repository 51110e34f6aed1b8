// SPDX-License-Identifier: GPL-2.0
/*
 * nmi_stackmap: pop a full stack map's freelist from NMI context.
 *
 * A machine without a PMU runs no perf_event program in NMI. This one takes
 * its NMIs from the kernel's all-CPU backtrace (sysrq 'l'): a child pinned to
 * one CPU writes 'l' to /proc/sysrq-trigger in a loop, which sends an NMI to
 * the other online CPUs. There this task, pinned, pops the map (a syscall
 * traced by task_stackid) and pushes it (a delete) in a loop, so that the
 * NMIs interrupt its own pops and pushes. Prints the counts in kselftest's
 * TAP and fails if no bpf_get_stackid() in NMI got -ENOMEM (no node popped),
 * if any got another error, or if the kernel was tainted (a WARN, an oops)
 * or lockdep turned itself off (a lockdep report) during the run: the NMI
 * backtraces overflow the kernel log, so a splat may no longer be in dmesg.
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
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "nmi_stackmap.h"
#include "nmi_stackmap.skel.h"

static const char *const ctx_name[NR_CTX] = { "nmi", "task" };

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: nmi_stackmap [-d SECONDS] [-c TASK_CPU] [-t TRIGGER_CPU]\n"
		"  -d  seconds to run (default 5)\n"
		"  -c  CPU of the task that pops and pushes the map (default 1)\n"
		"  -t  CPU that sends the NMIs with sysrq 'l' (default 0)\n");
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

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "nmi_stackmap: CPU %d: %s\n", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/* A number of the kernel's (0 if unreadable), in a file or after a key. */
static long kernel_number(const char *path, const char *key)
{
	char line[256];
	long v = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = key ? strstr(line, key) : line;

		if (p) {
			v = strtol(p + (key ? strlen(key) : 0), NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
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

	/* Stop with the task, however it ends. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1 || pin(cpu))
		_exit(1);
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
	int seconds = 5, task_cpu = 1, trigger_cpu = 0, ncpus, opt, fd, err, status = 0;
	long taint0, locks0, taint1, locks1;
	struct nmi_stackmap *skel;
	double start, elapsed;
	__u32 key, k;
	pid_t child;

	ncpus = libbpf_num_possible_cpus();
	opterr = 0;
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
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			fprintf(stderr, "nmi_stackmap: -%c: %s (nmi_stackmap -h)\n", optopt,
				strchr("dct", optopt) ? "needs a value" : "no such option");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "nmi_stackmap: %s: no arguments taken\n", argv[optind]);
		return 2;
	}
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
	err = nmi_stackmap__load(skel);
	if (!err)
		err = nmi_stackmap__attach(skel);
	if (err) {
		fprintf(stderr, "nmi_stackmap: load and attach: %s\n", strerror(-err));
		nmi_stackmap__destroy(skel);
		return 1;
	}
	fd = bpf_map__fd(skel->maps.stacks);

	if (pin(task_cpu)) {
		nmi_stackmap__destroy(skel);
		return 1;
	}
	taint0 = kernel_number("/proc/sys/kernel/tainted", NULL);
	locks0 = kernel_number("/proc/lockdep_stats", "debug_locks:");
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
	 * loop, push (a delete, of each stack in turn) on every fourth: the
	 * freelist stays empty but for a node now and then, which the task and
	 * the NMIs race for.
	 */
	start = now();
	for (;;) {
		syscall(SYS_getppid);
		k = (loops >> 2) % NR_STACKS;
		if (!(loops & 3) && !bpf_map_delete_elem(fd, &k))
			deletes++;
		if (!(++loops & 255) &&
		    (now() - start >= seconds || waitpid(child, &status, WNOHANG) == child))
			break;
	}
	elapsed = now() - start;
	if (kill(child, SIGKILL) == 0 && waitpid(child, &status, 0) != child)
		status = 0;
	nmi0 = nmis() - nmi0;
	taint1 = kernel_number("/proc/sys/kernel/tainted", NULL);
	locks1 = kernel_number("/proc/lockdep_stats", "debug_locks:");

	for (key = 0; key < NR_CTX * NR_OUT; key++) {
		unsigned long long v[ncpus];
		int cpu;

		if (bpf_map__lookup_elem(skel->maps.outcomes, &key, sizeof(key), v, sizeof(v), 0)) {
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
	printf("# kernel: tainted %ld -> %ld, debug_locks %ld -> %ld\n", taint0, taint1, locks0,
	       locks1);
	if (WIFEXITED(status) && WEXITSTATUS(status)) {
		printf("not ok 1 nmi_stackmap: the sysrq child failed\n");
		return 1;
	}
	if (taint1 != taint0 || locks1 != locks0) {
		printf("not ok 1 nmi_stackmap: the kernel was tainted or lockdep turned off\n");
		return 1;
	}
	if (total[CTX_NMI][OUT_OTHER] || total[CTX_TASK][OUT_OTHER]) {
		printf("not ok 1 nmi_stackmap: bpf_get_stackid() failed other than -ENOMEM\n");
		return 1;
	}
	if (!total[CTX_NMI][OUT_NOMEM]) {
		printf("not ok 1 nmi_stackmap: no bpf_get_stackid() in NMI got -ENOMEM\n");
		return 1;
	}
	printf("ok 1 nmi_stackmap: %llu pops in NMI found no node (-ENOMEM)\n",
	       total[CTX_NMI][OUT_NOMEM]);
	return 0;
}
