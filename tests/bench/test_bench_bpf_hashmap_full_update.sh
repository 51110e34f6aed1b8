#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The options and the outcome checks of the bpf-hashmap-full-update benchmark: bad values are
# rejected with one line and exit status 1, --help lists the options, and in each mode every
# update has the outcome the mode expects, with the Summary line run_common.sh reads.
#   BENCH=path/to/bench tests/bench/test_bench_bpf_hashmap_full_update.sh
# The runs need root and BPF tracing programs (skipped without root).
# Fails when (each a plant, lab/plants/NAME.patch on the series, that shows it):
# - the benchmark's parse_u32() takes a value with trailing characters, '12x' as 12
#   (full-update-parse-u32);
# - the BPF program counts a failing update under the wrong outcome, e.g. -E2BIG as 'other
#   error' (full-update-e2big-as-other; a KCSAN + lockdep build of 6.1 did this when the result
#   was compared as a long: the verifier leaves the upper half of R0 undefined);
# - report_final() prints no Summary line, or not the hits_drops one that run_common.sh parses
#   (full-update-no-summary);
# - race mode (7.3 series) takes --churners that leave no inserter (full-update-race-no-inserter),
#   counts the churners' inserts as the inserters' (full-update-race-roles-mixed), or offers the
#   inserts back to back whatever --period_ns says (full-update-race-unpaced).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

b=bpf-hashmap-full-update
help=$("$BENCH" --help 2>&1)
# The option that sets the map's size: --max_entries in the 7.3 series (the name
# bench_bpf_hashmap_lookup gives a map's size), --nr_entries in the LTS series. Read from the
# options --help lists under the benchmark's own heading.
size=nr_entries
# (argp: a group's heading is indented by one space, its options and their wrapped docs by more)
if awk '/full-update/ { own = 1; next } own && /^($| [^ ])/ { exit } own' <<<"$help" |
	grep -q -- '--max_entries='; then
	size=max_entries
fi
ktap_print_msg "the map's size is --$size"
bench_rejects "invalid --mode 'bogus'" $b --mode bogus
bench_rejects "invalid --mode ''" $b --mode ""
# Upstream bench (6.12, 7.3) parses the command line with the options of every benchmark, and a
# value that the first option of the name rejects (the bloom filter's --nr_entries or
# bench_bpf_hashmap_lookup's --max_entries: below 1 or above UINT_MAX) stops there, with that
# benchmark's message and argp's usage, exit status 64.
# A bench that gives each benchmark its own options (the 6.1 series) says that an option of
# another benchmark is not the selected one's, without running anything; so does this probe.
per_benchmark_options=0
probe=$("$BENCH" bloom-lookup --nr_loops 5 --nr_entries 0 2>&1) || true
if [[ $probe == *"is not an option of benchmark"* ]]; then
	per_benchmark_options=1
fi
first_parser_says="Invalid nr_entries count."
[[ $size == nr_entries ]] || first_parser_says="invalid max_entries"
for v in 0 -1 abc 99999999999; do
	if ((per_benchmark_options)); then
		bench_rejects "invalid --$size '$v'" $b --$size "$v"
	else
		bench_rejects_with 64 "$first_parser_says" $b --$size "$v"
	fi
done
bench_rejects "invalid --$size '12x'" $b --$size 12x
bench_rejects "invalid --$size '20000000'" $b --$size 20000000
bench_rejects "invalid --nr_loops '0'" $b --nr_loops 0
bench_rejects "invalid --nr_loops '8388609'" $b --nr_loops 8388609

# Race mode, where the bench has it (the 7.3 series): --churners N of the producers churn, the
# others insert; a count that leaves no inserter, producers without a CPU of their own (-a), or
# --churners without race mode, is one line.
race=0
if awk '/full-update/ { own = 1; next } own && /^($| [^ ])/ { exit } own' <<<"$help" |
	grep -q -- '--churners='; then
	race=1
	bench_rejects "--churners is an option of --mode race" $b --churners 1
	bench_rejects "race mode needs a churner and an inserter: -p 2 or more, not 1" -p1 $b --mode race
	bench_rejects "invalid --churners 2: race mode needs an inserter too" -p2 $b --mode race --churners 2
	bench_rejects "invalid --churners 5: race mode needs an inserter too" -p3 $b --mode race --churners 5
	bench_rejects "race mode needs a CPU for each producer: -a" -p2 $b --mode race
	bench_rejects "invalid --churners '0'" -p2 $b --mode race --churners 0
	bench_rejects "invalid --churners '1x'" -p2 $b --mode race --churners 1x
	bench_rejects "--period_ns is an option of --mode race" $b --period_ns 1000
	bench_rejects "invalid --period_ns '-1'" -p2 $b --mode race --period_ns -1
	bench_rejects "invalid --period_ns '1000000001'" -p2 $b --mode race --period_ns 1000000001
else
	ktap_test_skip "race mode's options" "this bench has no --mode race"
fi

for opt in --mode --$size --nr_loops; do
	if grep -q -- "$opt=" <<<"$help"; then
		ktap_test_pass "--help lists $opt"
	else
		ktap_test_fail "--help lists $opt"
	fi
done

# outcomes_match EXPECTED LINE: the counts of an Outcomes line ("Outcomes (CONTEXT): ok N,
# -E2BIG N, ..., other error N"; later reworks add outcomes, e.g. 7.3's -EDEADLK and -ETIMEDOUT)
# give every update the outcome EXPECTED: its count is not 0, every other count is
outcomes_match() {
	local expected=$1 counts=${2#*): } item name n seen=0
	local -a items
	IFS=, read -ra items <<<"$counts"
	for item in "${items[@]}"; do
		item=${item# }
		name=${item% *}
		n=${item##* }
		[[ $n =~ ^[0-9]+$ ]] || return 1
		if [[ $name == "$expected" ]]; then
			((n > 0)) || return 1
			seen=1
		elif ((n != 0)); then
			return 1
		fi
	done
	((seen))
}

# run MODE OUTCOME: the updates of the mode must all have OUTCOME, on a map of the size asked
# for, without a WARNING, and the Summary line must be the one run_common.sh parses
run() {
	local mode=$1 expect=$2 out outcomes
	if [[ $(id -u) != 0 ]]; then
		ktap_test_skip "$mode mode" "needs root"
		return
	fi
	out=$(timeout 60 "$BENCH" -w1 -d1 -p2 $b --mode "$mode" --$size 128 --nr_loops 1000 2>&1) || true
	outcomes=$(grep '^Outcomes' <<<"$out" || true)
	if [[ -z $outcomes && ${BENCH_ON_HOST:-0} == 1 ]] && grep -q "failed to load BPF skeleton" <<<"$out"; then
		# On the host (series/bench_options_and_outcomes_on_host) the kernel may refuse the
		# program (7.3's attaches to fentry/sys_getpgid; this host answers -EPERM); the
		# outcomes are checked in the VM (vm/vm_bench_harness_tests), where it loads.
		ktap_test_skip "$mode mode" "the host kernel does not load the benchmark's program: $(grep -m1 'load failed' <<<"$out")"
	elif [[ -z $outcomes ]]; then
		ktap_test_fail "$mode mode: no outcomes"
		ktap_print_msg "$out"
	elif grep -q WARNING <<<"$out"; then
		ktap_test_fail "$mode mode: $(grep WARNING <<<"$out")"
	elif [[ $outcomes != *" 128 entries, "* ]] || ! outcomes_match "$expect" "$outcomes"; then
		ktap_test_fail "$mode mode: unexpected outcomes: $outcomes"
	elif ! tail -n1 <<<"$out" | grep -qE '^Summary: hits +[0-9.]+ ± [0-9.]+M/s'; then
		ktap_test_fail "$mode mode: bad summary line: $(tail -n1 <<<"$out")"
	else
		ktap_test_pass "$mode mode: $outcomes"
	fi
}
run full -E2BIG
run existing ok

# race_run: with one churner and one inserter on 2 online CPUs, each role's inserts both succeed
# and, the inserters', fail with -E2BIG (the churner frees its element onto its own CPU's head
# between its delete and its insert, where the inserter's pop can take it), the Outcomes line has
# the two roles' groups, each role has its line, and nothing but ok and -E2BIG comes back
race_run() {
	local out outcomes group role n
	if ((!race)); then
		ktap_test_skip "race mode" "this bench has no --mode race"
		return
	elif [[ $(id -u) != 0 ]]; then
		ktap_test_skip "race mode" "needs root"
		return
	elif (($(nproc) < 2)); then
		ktap_test_skip "race mode" "needs 2 online CPUs, not $(nproc)"
		return
	fi
	out=$(timeout 60 "$BENCH" -w1 -d2 -a -p2 $b --mode race --churners 1 --period_ns 0 \
		--$size 128 2>&1) || true
	outcomes=$(grep '^Outcomes' <<<"$out" || true)
	if [[ -z $outcomes && ${BENCH_ON_HOST:-0} == 1 ]] && grep -q "failed to load BPF skeleton" <<<"$out"; then
		ktap_test_skip "race mode" "the host kernel does not load the benchmark's program"
		return
	elif [[ $outcomes != *"race mode, 128 entries, "*"): churners ok "*"; inserters ok "* ]]; then
		ktap_test_fail "race mode: no outcomes per role"
		ktap_print_msg "$out"
		return
	elif grep -q WARNING <<<"$out"; then
		ktap_test_fail "race mode: $(grep WARNING <<<"$out")"
		return
	fi
	# the groups: "churners ok N, -E2BIG N, ...; inserters ok N, -E2BIG N, ..."
	for group in "churners ok" "inserters ok" "inserters -E2BIG"; do
		role=${group%% *}
		n=${outcomes#*"; "}
		[[ $role == inserters ]] || n=${outcomes%%;*}
		n=${n#*"$role "}
		n=${n#*"${group#* } "}
		n=${n%%,*}
		if [[ ! $n =~ ^[0-9]+$ || $n == 0 ]]; then
			ktap_test_fail "race mode: $group ${n:0:20}: $outcomes"
			return
		fi
	done
	for role in churners inserters; do
		if ! grep -qE "^$role +inserts +[0-9.]+ ± [0-9.]+M/s, -E2BIG +[0-9.]+ ± [0-9.]+M/s, failed insert " <<<"$out"; then
			ktap_test_fail "race mode: no $role line"
			ktap_print_msg "$out"
			return
		fi
	done
	if ! tail -n1 <<<"$out" | grep -qE '^Summary: hits +[0-9.]+ ± [0-9.]+M/s'; then
		ktap_test_fail "race mode: bad summary line: $(tail -n1 <<<"$out")"
	else
		ktap_test_pass "race mode: $outcomes"
	fi
}
race_run

# race_offered: in an open loop each producer attempts the inserts --period_ns offers, an insert
# every 100 us: 0.010M/s, within 10% (a closed loop attempts hundreds of times more)
race_offered() {
	local out role line offered attempted bad=""
	if ((!race)) || [[ $(id -u) != 0 ]] || (($(nproc) < 2)); then
		ktap_test_skip "race mode's offered inserts" "no race mode, no root or one online CPU"
		return
	fi
	out=$(timeout 60 "$BENCH" -w1 -d2 -a -p2 $b --mode race --churners 1 --period_ns 100000 \
		--nr_loops 100 --$size 128 2>&1) || true
	if ! grep -q '^Outcomes' <<<"$out" && [[ ${BENCH_ON_HOST:-0} == 1 ]] &&
		grep -q "failed to load BPF skeleton" <<<"$out"; then
		ktap_test_skip "race mode's offered inserts" "the host kernel does not load the benchmark's program"
		return
	fi
	for role in churners inserters; do
		line=$(grep "^Offered ($role, an insert every 100000 ns each): " <<<"$out" || true)
		offered=$(sed -nE 's/.*: ([0-9.]+)M\/s, attempted ([0-9.]+)M\/s$/\1/p' <<<"$line")
		attempted=$(sed -nE 's/.*: ([0-9.]+)M\/s, attempted ([0-9.]+)M\/s$/\2/p' <<<"$line")
		if [[ -z $offered || -z $attempted ]]; then
			bad+=" no Offered line for the $role;"
		elif ! awk -v o="$offered" -v a="$attempted" 'BEGIN { exit !(a >= 0.9 * o && a <= 1.1 * o) }'; then
			bad+=" the $role attempted $attempted M/s of $offered M/s offered;"
		fi
	done
	if [[ -n $bad ]]; then
		ktap_test_fail "race mode's offered inserts:${bad%;}"
		ktap_print_msg "$out"
	else
		ktap_test_pass "race mode's offered inserts: $(grep '^Offered' <<<"$out" | paste -sd' ')"
	fi
}
race_offered

ktap_finished
