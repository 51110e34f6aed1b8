/* SPDX-License-Identifier: GPL-2.0-only */
/* The atomic bitops are the counted ones of ../../pcpu_shim.h. */
