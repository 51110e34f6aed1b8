#!/bin/bash
# The bench tests of tests/bench/ that the series' bench must pass, on the host: each benchmark
# accepts its own options only (options); the options and outcomes of bpf-hashmap-full-update.
#   tests/series/bench_options_and_outcomes_on_host.sh NAME...   (tests/bench/test_bench_NAME.sh;
#   config/<base>/tests gives the names)
# Plant: bench's argp children parsing every option for every benchmark (the fix of the series'
# bench options patch reverted), or bpf-hashmap-full-update printing a batch per CPU again.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

bench_options_and_outcomes_on_host() {
	local dir t
	(($#)) || die "usage: $0 NAME... (tests/bench/test_bench_NAME.sh)"
	dir=$(bench_dir)
	for t in "$@"; do
		BENCH=$dir/bench BENCH_ON_HOST=1 "$bench_tests/test_bench_$t.sh"
	done
}

run_test bench_options_and_outcomes_on_host "$@"
