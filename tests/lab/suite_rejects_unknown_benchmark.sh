#!/bin/bash
# scripts/guest/suite.sh (make bench in the VM) stops with one line naming the registry when asked for a
# benchmark it does not have.
# Plant: suite.sh's error for an unknown benchmark not naming the registry it looked in.
# Plant command: sed -i 's/die "no benchmark in config\/benchmarks matches/die "nothing matches/' scripts/guest/suite.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

suite_rejects_unknown_benchmark() {
	expect_fail "no benchmark in config/benchmarks matches 'no-such-bench'" \
		"$S/guest/suite.sh" -b "$("$S/bench-build.sh" HEAD)" -w vm no-such-bench
}

run_test suite_rejects_unknown_benchmark "$@"
