#!/bin/bash
# The series' CPU-local freelist path executes no more instructions than the base's: the harness
# counts pcpu_freelist_push() and pcpu_freelist_pop() per operation exactly (run.sh count:
# callgrind, the difference of two run lengths) on a CPU's own head, holding nodes (own) and
# flipping between one node and none (ownflip), at 64 possible CPUs; the series' count of each
# must be at most the base's.
# Plant: the series' push tests its head's bit on every push, out of line, as v5 did
# (lab/variants/freelist-v5post-7.3.patch as the series): own and ownflip fail the gate.
# Plant command: sed -i 's|^freelist_local_path_counts() {$|&\n\texport FREELIST_SRC_DIR=$("$LAB_ROOT/tools/testing/pcpu_freelist/run.sh" src freelist-v5post)|' tests/series/freelist_local_path_counts.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

freelist_local_path_counts() {
	PFL_COUNT_CASES="own:64 ownflip:64" PFL_COUNT_GATE=series \
		"$LAB_ROOT/tools/testing/pcpu_freelist/run.sh" count base series
}

run_test freelist_local_path_counts "$@"
