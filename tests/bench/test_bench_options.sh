#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench parses every benchmark's options in one command line. Each benchmark accepts only the
# options it declares; one of another benchmark is an error (one line, exit status 1); and two
# benchmarks may spell an option the same way (--nr_entries: the bloom filter's and
# bpf-hashmap-full-update's), each getting its own.
#   BENCH=path/to/bench tests/bench/test_bench_options.sh
# Needs root and raw_tp programs (bpf-hashmap-full-update runs for 2 seconds).
# Fails when (each a plant, lab/plants/NAME.patch on the series, that shows it):
# - bench no longer checks the given options against the selected benchmark's, so an option of
#   another benchmark is accepted and ignored (options-any-benchmark);
# - the second pass parses with every benchmark's parsers instead of the selected one's, so
#   --nr_entries goes to the bloom filter's and the full-update map keeps its default size
#   (options-first-declarer).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need_root

not_yours="is not an option of benchmark"
bench_rejects "option --nr_hash_funcs $not_yours 'bpf-hashmap-full-update'" \
	bpf-hashmap-full-update --nr_hash_funcs 3
bench_rejects "option --use-case $not_yours 'bpf-hashmap-full-update'" \
	bpf-hashmap-full-update --use-case overwrite
bench_rejects "option --nr_entries $not_yours 'trig-base'" trig-base --nr_entries 5000
bench_rejects "option --nr_entries $not_yours 'bpf-loop'" --nr_entries 10 bpf-loop
bench_rejects "option --mode $not_yours 'bloom-lookup'" bloom-lookup --mode full
bench_rejects "option --value-size $not_yours 'bloom-lookup'" bloom-lookup --value-size 8

# parse_only BENCH-ARGS...: the options are accepted (the benchmark is set up; whether it can run
# on this kernel does not matter here)
parse_only() {
	local out rc=0
	out=$(timeout 60 "$BENCH" -w1 -d1 "$@" 2>&1) || rc=$?
	if grep -q "$not_yours" <<<"$out" || ! grep -q "^Setting up benchmark '$1'" <<<"$out"; then
		ktap_test_fail "bench $*: options not accepted (exit status $rc)"
		ktap_print_msg "$out"
	else
		ktap_test_pass "bench $*: options accepted"
	fi
}
parse_only bloom-lookup --nr_entries 5000 --value_size 8 --nr_hash_funcs 3
parse_only bpf-loop --nr_loops 10
parse_only htab-mem --value_size 8
parse_only htab-mem --value-size 8

# map_size WHERE BENCH-ARGS...: bpf-hashmap-full-update must run with a map of 5000 entries
map_size() {
	local where=$1 out outcomes
	shift
	out=$(timeout 60 "$BENCH" -w1 -d1 -p1 "$@" 2>&1) || true
	outcomes=$(grep '^Outcomes' <<<"$out" || true)
	if [[ $outcomes == *"full mode, 5000 entries,"* ]]; then
		ktap_test_pass "--nr_entries 5000 $where the benchmark name: $outcomes"
	else
		ktap_test_fail "--nr_entries 5000 $where the benchmark name: map size not 5000"
		ktap_print_msg "$out"
	fi
}
map_size after bpf-hashmap-full-update --nr_entries 5000
map_size before --nr_entries 5000 bpf-hashmap-full-update

ktap_finished
