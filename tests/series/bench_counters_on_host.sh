#!/bin/bash
# The hits bench reports must be the getpgid() calls strace counts, for userspace (trig-base) and
# BPF (trig-rawtp) counters.
# Plant: per-CPU bench counters summed over the online CPUs only, or the counters patch reverted
# (the hits then differ from strace's count).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

bench_counters_on_host() {
	local bench_dir
	bench_dir=$(bench_dir)
	BENCH=$bench_dir/bench "$bench_tests/test_bench_counters.sh"
}

run_test bench_counters_on_host "$@"
