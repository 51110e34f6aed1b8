#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The hit counters of bench, checked from outside: with two producers pinned to two CPUs, the
# hits that bench reports must be the getpgid() calls that strace counts in the same run.
# trig-base counts in userspace, one counter slot per producer thread; trig-rawtp counts in its
# BPF program, one slot per CPU. bench prints a rate per interval ("Iter N (DELTA us): hits
# RATE M/s"), so its count is the sum of RATE x (1 s + DELTA) over the intervals; strace also
# counts the calls made after the last interval, while bench exits, so bench's count may be a
# little lower. A lost slot, or one counted twice, is off by about half.
#   BENCH=path/to/bench tests/bench/test_bench_counters.sh
# Needs root, strace, two CPUs and raw_tp programs, and a machine fast enough for 50000 calls
# in 5 seconds under strace (a TCG guest is not: a run with fewer calls is skipped).
# Fails when (a plant, lab/plants/NAME.patch on the series, shows it) counters_sum_reset() reads
# only the first slot, so that the second producer's hits are lost (counters-first-slot-only).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
need_root
if ! command -v strace >/dev/null; then
	ktap_skip_all "needs strace"
	exit "$KSFT_SKIP"
fi
if (($(nproc) < 2)); then
	ktap_skip_all "needs two CPUs"
	exit "$KSFT_SKIP"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-counters.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for b in trig-base trig-rawtp; do
	out=$(timeout 120 strace -f -qq -c -e trace=getpgid -o "$tmp/$b.strace" \
		"$BENCH" -w1 -d3 -p2 --prod-affinity 0,1 "$b" 2>&1) || true
	calls=$(awk '$NF == "getpgid" { print $4 }' "$tmp/$b.strace" 2>/dev/null || true)
	hits=$(awk '$1 == "Iter" {
		delta = $3; gsub(/[():us]/, "", delta)
		for (i = 4; i <= NF; i++)
			if ($i == "hits") { rate = $(i + 1); sub(/M\/s/, "", rate) }
		n += rate * 1e6 * (1 + delta / 1e6)
	} END { printf "%.0f\n", n }' <<<"$out")
	if [[ -z $calls || $hits == 0 ]]; then
		ktap_test_fail "$b: no count (strace: '${calls:-}', bench: $hits)"
		ktap_print_msg "$out"
		continue
	fi
	# bench prints rates in M/s with three decimals, 500 hits either way per interval
	if ((calls < 50000)); then
		ktap_test_skip "$b" "only $calls getpgid calls: too few to compare with rates printed to 0.001M/s"
		continue
	fi
	ratio=$(awk -v h="$hits" -v c="$calls" 'BEGIN { printf "%.3f", h / c }')
	if awk -v r="$ratio" 'BEGIN { exit !(r >= 0.9 && r <= 1.1) }'; then
		ktap_test_pass "$b: bench counted $hits hits, strace $calls getpgid calls (ratio $ratio)"
	else
		ktap_test_fail "$b: bench counted $hits hits, strace $calls getpgid calls (ratio $ratio, expected 0.9 to 1.1)"
		ktap_print_msg "$(grep -E '^(Iter|Summary)' <<<"$out")"
	fi
done

ktap_finished
