#!/bin/bash
# The bench tests of the series (tests/bench/test_bench_NAME.sh, as on the host) on the series'
# kernel in the VM. (Not the counters test: under strace a TCG guest makes too few calls to compare.)
#   tests/vm/vm_bench_harness_tests.sh NAME...   (config/<base>/tests gives the names)
# Plant: as for series/bench_options_and_outcomes_on_host: the series' bench options patch
# reverted; or a kernel whose full hash map never returns -E2BIG.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_bench_harness_tests() {
	local bench_dir t cmd=""
	(($#)) || die "usage: $0 NAME... (tests/bench/test_bench_NAME.sh)"
	bench_dir=$(bench_dir)
	for t in "$@"; do
		cmd+="BENCH=$bench_dir/bench $bench_tests/test_bench_$t.sh && "
	done
	vm -- "${cmd}true"
}

run_test vm_bench_harness_tests "$@"
