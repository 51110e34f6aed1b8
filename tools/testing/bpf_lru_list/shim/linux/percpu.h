/* SPDX-License-Identifier: GPL-2.0-only */
#include "../lru_shim.h"
