/* SPDX-License-Identifier: GPL-2.0-only */
#include "../pcpu_shim.h"
