#!/bin/bash
# The C++ freelist harness (tools/testing/pcpu_freelist/run.sh: GoogleTest, plain and under
# ThreadSanitizer, on the base's and the series' percpu_freelist.c), and one short run of its
# multi-threaded benchmark: that it runs, not what it measures.
# Plant: the series' percpu_freelist.c with a pop that drops a node (lab/plants/freelist-lossy-pop.patch): the harness's conservation test fails.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# Arguments: lab variants (lab/variants/index) of the base's freelist that the benchmark also
# runs, for the bases whose file they apply to (config/<base>/tests).
freelist_harness() {
	"$LAB_ROOT/tools/testing/pcpu_freelist/run.sh"
	# The multi-threaded benchmark, briefly: that it runs, not what it measures.
	PFL_MT_REPS=1 PFL_MT_MS=20 "$LAB_ROOT/tools/testing/pcpu_freelist/run.sh" mt base series "$@"
}

run_test freelist_harness "$@"
