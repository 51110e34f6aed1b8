/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by nmi_stackmap.bpf.c and nmi_stackmap.c. */
#ifndef NMI_STACKMAP_H
#define NMI_STACKMAP_H

/*
 * Stacks the map holds: as many elements as buckets, so once both buckets
 * hold a stack the freelist is empty, and a stack that the map does not hold
 * pops nothing until a delete frees one.
 */
#define NR_STACKS	2

/* The contexts bpf_get_stackid() runs in, and its outcomes. */
enum { CTX_NMI, CTX_TASK, NR_CTX };
enum { OUT_OK, OUT_NOMEM, OUT_OTHER, NR_OUT };

#endif
