// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_get_stackid(BPF_F_REUSE_STACKID) from NMI context on a stack map that
 * is full: a stack that the map does not hold pops the map's freelist, and
 * one that replaces another in its bucket pushes the old one back. Each call
 * skips 0-3 frames at random, so that the same call site gives four stacks.
 * The nmi_handler tracepoint runs in the NMI handler; sys_enter, filtered to
 * one task and one syscall, pops the same freelist from the task that the
 * NMIs interrupt.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "nmi_stackmap.h"

#define ENOMEM		12
#define STACK_DEPTH	127	/* PERF_MAX_STACK_DEPTH */
#define SKIP_MASK	3

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, NR_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

/* outcomes[ctx * NR_OUT + outcome] */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_CTX * NR_OUT);
	__type(key, __u32);
	__type(value, __u64);
} outcomes SEC(".maps");

const volatile int task_pid;
const volatile long task_syscall;

static void stackid(void *ctx, __u32 where)
{
	__u64 flags = BPF_F_REUSE_STACKID | (bpf_get_prandom_u32() & SKIP_MASK);
	long id = bpf_get_stackid(ctx, &stacks, flags);
	__u32 key = where * NR_OUT;
	__u64 *n;

	if (id >= 0)
		key += OUT_OK;
	else if (id == -ENOMEM)
		key += OUT_NOMEM;
	else
		key += OUT_OTHER;
	n = bpf_map_lookup_elem(&outcomes, &key);
	if (n)
		(*n)++;
}

SEC("raw_tp/nmi_handler")
int nmi_stackid(struct bpf_raw_tracepoint_args *ctx)
{
	stackid(ctx, CTX_NMI);
	return 0;
}

SEC("raw_tp/sys_enter")
int task_stackid(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] != task_syscall ||
	    bpf_get_current_pid_tgid() >> 32 != task_pid)
		return 0;
	stackid(ctx, CTX_TASK);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
