#!/bin/bash
# The options and the outcome checks of the bpf-hashmap-full-update benchmark: bad values are
# rejected with one line and exit status 1, --help lists the options, and in each mode every
# update has the outcome the mode expects.
#   BASE=6.1|6.12 BENCH=path/to/bench tests/bench/test_bench_bpf_hashmap_full_update.sh
# The runs need root and raw_tp programs.
set -euo pipefail
# shellcheck source=tap.sh
. "$(dirname "$0")/tap.sh"

b=bpf-hashmap-full-update
bad_option "invalid --mode 'bogus'" $b --mode bogus
bad_option "invalid --mode ''" $b --mode ""
# 6.12's bench parses the command line twice, first with the options of every benchmark, and a
# value that the first option of the name rejects (the bloom filter's --nr_entries: below 1 or
# above UINT_MAX) stops there, with that benchmark's message and argp's usage, exit status 64. The
# 6.1 series gives each benchmark its own options only.
for v in 0 -1 abc 99999999999; do
	if [[ $BASE == 6.1 ]]; then
		bad_option "invalid --nr_entries '$v'" $b --nr_entries "$v"
	else
		rejected 64 "Invalid nr_entries count." $b --nr_entries "$v"
	fi
done
bad_option "invalid --nr_entries '12x'" $b --nr_entries 12x
bad_option "invalid --nr_entries '20000000'" $b --nr_entries 20000000
bad_option "invalid --nr_loops '0'" $b --nr_loops 0
bad_option "invalid --nr_loops '8388609'" $b --nr_loops 8388609

help=$("$BENCH" --help 2>&1)
for opt in --mode --nr_entries --nr_loops; do
	if grep -q -- "$opt=" <<<"$help"; then
		ok "--help lists $opt"
	else
		not_ok "--help lists $opt"
	fi
done

# run MODE OUTCOMES-REGEX: the outcome counters must match the mode, without a WARNING, and the
# Summary line must be the one run_common.sh parses
run() {
	local mode=$1 expect=$2 out outcomes
	out=$(timeout 60 "$BENCH" -w1 -d1 -p2 $b --mode "$mode" --nr_entries 128 --nr_loops 1000 2>&1) || true
	outcomes=$(grep '^Outcomes' <<<"$out" || true)
	if [[ -z $outcomes ]]; then
		not_ok "$mode mode: no outcomes"
		comment "$out"
	elif grep -q WARNING <<<"$out"; then
		not_ok "$mode mode: $(grep WARNING <<<"$out")"
	elif ! grep -qE "$expect" <<<"$outcomes"; then
		not_ok "$mode mode: unexpected outcomes: $outcomes"
	elif ! tail -n1 <<<"$out" | grep -qE '^Summary: hits +[0-9.]+ ± [0-9.]+M/s'; then
		not_ok "$mode mode: bad summary line: $(tail -n1 <<<"$out")"
	else
		ok "$mode mode: $outcomes"
	fi
}
run full '128 entries, [0-9]+ updates\): ok 0, -E2BIG [1-9][0-9]*, -ENOMEM 0, other error 0$'
run existing '128 entries, [0-9]+ updates\): ok [1-9][0-9]*, -E2BIG 0, -ENOMEM 0, other error 0$'

tap_done
