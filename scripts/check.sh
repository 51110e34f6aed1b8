#!/bin/bash
# The lab's test runner, kselftest's in shape: each test is an executable tests/<tier>/<name>.sh
# that prints KTAP and exits 0 (pass), 1 (fail) or 4 (skip); the runner prints the plan, one line
# a test ("ok N name (time)", "not ok N name (time)" with the end of its log, "ok N name # SKIP
# reason", "not ok N name # TIMEOUT N seconds"), the totals, and last "N passed, N failed, N skipped".
# A test gets the timeout of its tier's settings file (timeout=N); on timeout, or when it ends, its
# process group is killed: nothing it started outlives it.
# The unit tier (tests/unit/) runs once; the tests of a base are listed in config/<base>/tests, one
# "[slow] tier/name [argument...]" a line, in the order they run, named "<base>/<tier>/<name>".
# A line marked slow runs only when "slow" is among the tiers (make check-slow), whatever its tier.
# When some tests of a base run and its series/tree does not, series/tree runs first.
#   scripts/check.sh [-l] [-t TIER,...] [-a GLOB,...] [-b GLOB,...] [NAME...]
#     -l          list the selected tests instead of running them
#     -t TIERS    tiers to run: unit lab series vm regress, and slow: the lines marked slow
#                 (default: unit,lab,series,vm)
#     -a GLOBS    run only tests whose name (or the part after the base, or after the tier) matches
#     -b GLOBS    leave out the tests that match
#     NAME...     the same as -a NAME,...
# BASE=<base> runs that base's tests only (and the unit tier).
set -euo pipefail
requested_base=${BASE:-}
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs

usage() {
	cat <<'USAGE'
usage: scripts/check.sh [-l] [-t TIER,...] [-a GLOB,...] [-b GLOB,...] [NAME...]
  -l  list the tests   -t  tiers (unit lab series vm regress slow; default unit,lab,series,vm)
  -a  run the tests matching a glob   -b  leave out the tests matching a glob
USAGE
	exit 0
}

all_tiers="unit lab series vm regress"	# the directories of tests/
tiers="unit,lab,series,vm" allow='' deny='' list=0
while getopts :lt:a:b:h opt; do
	case $opt in
	l) list=1 ;;
	t) tiers=$OPTARG ;;
	a) allow+=${allow:+,}$OPTARG ;;
	b) deny+=${deny:+,}$OPTARG ;;
	h) usage ;;
	*) bad_option "$opt" "$OPTARG" "${0##*/} -h" ;;
	esac
done
shift $((OPTIND - 1))
for name in "$@"; do
	allow+=${allow:+,}$name
done
IFS=, read -ra tiers <<<"$tiers"
for t in "${tiers[@]}"; do
	[[ " $all_tiers slow " == *" $t "* ]] || die "-t $t: no such tier (tiers: $all_tiers slow)"
done
selected_tier() {
	[[ " ${tiers[*]} " == *" $1 "* ]]
}

# matches ID GLOBS: the test ID (base/tier/name or unit/name) matches one of the comma-separated
# globs, as a whole, without its base, or by its name alone.
matches() {
	local id=$1 glob
	local -a globs
	IFS=, read -ra globs <<<"$2"
	for glob in "${globs[@]}"; do
		# shellcheck disable=SC2053 # the right side is a glob
		[[ $id == $glob || ${id#*/} == $glob || ${id##*/} == $glob ]] && return 0
	done
	return 1
}

# The tests, one "id<TAB>file<TAB>base<TAB>arguments" line each, in the order they run.
ids=() files=() bases=() targs=()
add_test() {
	[[ -z $allow ]] || matches "$1" "$allow" || return 0
	[[ -z $deny ]] || ! matches "$1" "$deny" || return 0
	ids+=("$1") files+=("$2") bases+=("$3") targs+=("$4")
}
if selected_tier unit; then
	for f in "$LAB_ROOT"/tests/unit/*.sh; do
		add_test "unit/$(basename "$f" .sh)" "$f" "" ""
	done
fi
# LLVM=1 without BASE: the bases that build with LLVM (KERNEL_LLVM in their toolchain.conf); with
# BASE, check_knobs has already refused a base that does not.
llvm_skipped=()
for b in $(lab_bases); do
	[[ -z $requested_base || $requested_base == "$b" ]] || continue
	if [[ ${LLVM:-0} == 1 ]] && ! grep -qs '^KERNEL_LLVM=' "$LAB_ROOT/config/$b/toolchain.conf"; then
		llvm_skipped+=("$b")
		continue
	fi
	list_file=$LAB_ROOT/config/$b/tests
	[[ -f $list_file ]] || die "config/$b/tests not found (the tests of base $b, one [slow] tier/name a line)"
	first=${#ids[@]}
	while read -r test args; do
		tier=${test%%/*}
		if [[ $test == slow ]]; then
			read -r test args <<<"$args"
			tier=slow
		fi
		f=$LAB_ROOT/tests/$test.sh
		[[ $test == */* && " $all_tiers " == *" ${test%%/*} "* ]] || die "config/$b/tests: '$test': expected [slow] tier/name"
		selected_tier "$tier" || continue
		[[ -x $f ]] || die "config/$b/tests: '$test': no test tests/$test.sh"
		add_test "$b/$test" "$f" "$b" "$args"
	done < <(list_entries "$list_file")
	# The tests of a base need its tree (series/tree, first in its list): when some of them run
	# and it does not (make check-slow, or -a), it runs before them.
	if ((${#ids[@]} > first)) && [[ ${ids[$first]} != "$b/series/tree" ]] &&
		list_entries "$list_file" | grep -qx 'series/tree\([[:space:]].*\)\{0,1\}'; then
		ids=("${ids[@]:0:first}" "$b/series/tree" "${ids[@]:first}")
		files=("${files[@]:0:first}" "$LAB_ROOT/tests/series/tree.sh" "${files[@]:first}")
		bases=("${bases[@]:0:first}" "$b" "${bases[@]:first}")
		targs=("${targs[@]:0:first}" "" "${targs[@]:first}")
	fi
done
if [[ -n $allow ]] && ((${#ids[@]} == 0)); then
	die "no test matches '$allow' in the tiers ${tiers[*]} (scripts/check.sh -l -t ${all_tiers// /,},slow lists them)"
fi
if ((list)); then
	((${#ids[@]} == 0)) || printf '%s\n' "${ids[@]}"
	exit 0
fi

# timeout_of TIER: the tier's time limit for one test, from tests/<tier>/settings.
timeout_of() {
	local settings=$LAB_ROOT/tests/$1/settings t
	t=$(sed -n 's/^timeout=\([0-9][0-9]*\)$/\1/p' "$settings" 2>/dev/null)
	[[ -n $t ]] || die "tests/$1/settings: no timeout=SECONDS line"
	echo "$t"
}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/lab-check.XXXXXX")
test_pid=''
# stop_test: the running test's process group, TERM and 10 s later KILL.
stop_test() {
	local i
	[[ -n $test_pid ]] || return 0
	kill -TERM -- "-$test_pid" 2>/dev/null || true
	for ((i = 0; i < 100; i++)); do
		kill -0 -- "-$test_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL -- "-$test_pid" 2>/dev/null || true
	test_pid=''
}
cleanup() {
	stop_test
	remove_scratch "$scratch"
}
trap cleanup EXIT
trap 'echo "Bail out! interrupted"; exit 130' INT
trap 'echo "Bail out! terminated"; exit 143' TERM

passed=0 failed=0 skipped=0 start=$SECONDS
((${#llvm_skipped[@]} == 0)) ||
	note "LLVM=1: not on ${llvm_skipped[*]}, whose kernels build with gcc only (no KERNEL_LLVM in config/<base>/toolchain.conf)"
echo "TAP version 13"
echo "1..${#ids[@]}"
for i in "${!ids[@]}"; do
	id=${ids[$i]} n=$((i + 1)) t0=$SECONDS
	tier=${id#"${bases[$i]}"/}
	tier=${tier%%/*}
	limit=$(timeout_of "$tier")
	log=$scratch/logs/${id//\//-}.log
	mkdir -p "$scratch/logs"
	note "$id ..."
	env_args=(LAB_TEST_SCRATCH="$scratch/${id//\//-}")
	[[ -z ${bases[$i]} ]] || env_args+=(BASE="${bases[$i]}")
	# Every base of a full run has its own tree and patches: a TREE or LAB_PATCHES given for one base
	# holds only when one base runs.
	unset_args=()
	[[ -n $requested_base || -z ${bases[$i]} ]] || unset_args=(-u TREE -u LAB_PATCHES)
	# GNU timeout makes the test a process group of its own: TERM at the limit, KILL 10 s later.
	# shellcheck disable=SC2086 # the test's arguments, words of config/<base>/tests
	timeout -k 10 "$limit" env "${unset_args[@]}" "${env_args[@]}" "${files[$i]}" ${targs[$i]} \
		</dev/null >"$log" 2>&1 &
	test_pid=$!
	rc=0
	wait "$test_pid" || rc=$?
	kill -KILL -- "-$test_pid" 2>/dev/null || true	# what the test left running
	test_pid=''
	if ((rc == 0)); then
		echo "ok $n $id ($((SECONDS - t0))s)"
		passed=$((passed + 1))
	elif ((rc == 4)); then
		echo "ok $n $id # SKIP $(sed -n 's/^ok [0-9]* .* # SKIP //p' "$log" | tail -n1)"
		skipped=$((skipped + 1))
	else
		if ((rc == 124 || rc == 137)); then
			echo "not ok $n $id # TIMEOUT $limit seconds"
		else
			echo "not ok $n $id ($((SECONDS - t0))s)"
		fi
		echo "# last lines of its log (less its ok lines):"
		grep -v '^ok [0-9]' "$log" | tail -n 25 | sed 's/^/# | /'
		failed=$((failed + 1))
	fi
done
echo "# Totals: pass:$passed fail:$failed skip:$skipped"
echo "# check took $((SECONDS - start))s"
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
