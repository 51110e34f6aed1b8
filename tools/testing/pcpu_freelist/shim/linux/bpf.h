/* SPDX-License-Identifier: GPL-2.0-only */
/* What percpu_freelist.c takes from linux/bpf.h: the memcg flags of BPF's allocations. */
#ifndef PCPU_SHIM_LINUX_BPF_H
#define PCPU_SHIM_LINUX_BPF_H
#define bpf_memcg_flags(flags)	(flags)
#endif
