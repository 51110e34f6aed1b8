#!/bin/bash
# tests/ktap.sh, the lab's one KTAP library, has the names of kselftest's ktap_helpers.sh and
# writes what it writes: the header, the plan (up front, or, the lab's addition, at the end when
# none was set), "ok N", "not ok N", "ok N NAME # SKIP [reason]", "ok N NAME # XFAIL", "1..0 # SKIP
# reason" for a test that cannot run, "Bail out!", kselftest's totals line; ktap_finished exits 0
# when every planned case passed, was skipped or failed as expected, 1 otherwise (a failure, or
# fewer cases than planned). Each case here is a small script that sources it, in a clean shell;
# run_test (tests/lib.sh) exits 4 for a skipped test, as kselftest's runner reads it.
# Plant: a test that ran fewer cases than its plan passes.
# Plant command: sed -i 's/^\t((KTAP_CNT_PASS + KTAP_CNT_SKIP + KTAP_CNT_XFAIL == KSFT_NUM_TESTS)) || exit "\$KSFT_FAIL"$/\t((KTAP_CNT_FAIL == 0)) || exit "$KSFT_FAIL"/' tests/ktap.sh
# Plant: run_test passing a skipped test (exit 0, not kselftest's 4).
# Plant command: sed -i '/^\t\t# (kselftest.s exit status of a test that ran nothing/,/^\t\texit "\$KSFT_SKIP"$/d' tests/lib.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# expect NAME STATUS OUTPUT BODY: BODY, run by a bash that sourced tests/ktap.sh (LAB_ROOT set), must print
# OUTPUT exactly and exit with STATUS.
expect() {
	local name=$1 status=$2 want=$3 body=$4 out rc=0
	# shellcheck disable=SC2016 # expanded by the inner bash
	out=$(env -i PATH="$PATH" HOME="$HOME" LAB_ROOT="$LAB_ROOT" bash -c 'set -euo pipefail; . "$1"; eval "$2"' - "$LAB_ROOT/tests/ktap.sh" "$body" 2>&1) || rc=$?
	if [[ $rc != "$status" || $out != "$want" ]]; then
		echo "$name: exit $rc (expected $status), output (- expected, + got):"
		diff <(echo "$want") <(echo "$out") || true
		return 1
	fi
	echo "$name: exit $rc, as expected"
}

ktap_reports_like_kselftest() {
	local bad=0
	expect "plan up front, all pass" 0 'TAP version 13
1..2
ok 1 first
ok 2 second
# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0' \
		'ktap_print_header; ktap_set_plan 2; ktap_test_pass first; ktap_test_pass second; ktap_finished' || bad=1
	expect "plan at the end, one fails, diagnostics" 1 'TAP version 13
ok 1 first
# two
# lines
not ok 2 second
1..2
# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0 error:0' \
		'ktap_print_header; ktap_test_pass first; ktap_print_msg "two
lines"; ktap_test_fail second; ktap_finished' || bad=1
	expect "a skip with its reason, a skip without, an expected failure" 0 'TAP version 13
1..4
ok 1 first
ok 2 second # SKIP needs root
ok 3 third # SKIP
ok 4 fourth # XFAIL
# 2 skipped test(s) detected.  Consider enabling relevant config options to improve coverage.
# Totals: pass:1 fail:0 xfail:1 xpass:0 skip:2 error:0' \
		'ktap_print_header; ktap_set_plan 4; ktap_test_pass first; ktap_test_skip second "needs root"; ktap_test_skip third; ktap_test_xfail fourth; ktap_finished' || bad=1
	expect "ktap_test_result" 1 'TAP version 13
1..2
ok 1 true
not ok 2 false
# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0 error:0' \
		'ktap_print_header; ktap_set_plan 2; ktap_test_result true true; ktap_test_result false false; ktap_finished' || bad=1
	expect "fewer cases than planned" 1 'TAP version 13
1..3
ok 1 first
ok 2 second
# Planned tests != run tests (3 != 2)
# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0' \
		'ktap_print_header; ktap_set_plan 3; ktap_test_pass first; ktap_test_pass second; ktap_finished' || bad=1
	# shellcheck disable=SC2016 # expanded by the inner bash
	expect "nothing can run here" "$KSFT_SKIP" 'TAP version 13
1..0 # SKIP needs no-such-command-here' \
		'ktap_print_header; command -v no-such-command-here >/dev/null || { ktap_skip_all needs no-such-command-here; exit "$KSFT_SKIP"; }; ktap_test_pass never' || bad=1
	expect "bail out" 1 'TAP version 13
ok 1 first
Bail out! no test named x
# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0' \
		'ktap_print_header; ktap_test_pass first; ktap_exit_fail_msg no test named x; ktap_test_pass never' || bad=1
	# run_test of a test that skips: its one case skipped, exit status 4
	# shellcheck disable=SC2016 # expanded by the inner bash
	expect "run_test, a skipped test" "$KSFT_SKIP" 'TAP version 13
1..1
ok 1 t # SKIP no bench here
# 1 skipped test(s) detected.  Consider enabling relevant config options to improve coverage.
# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0' \
		'. "$LAB_ROOT/tests/lib.sh"; t() { skip "no bench here"; }; run_test t' || bad=1
	# kselftest's own file, where the cache has the tree (make tree): the same output and status
	# for what both write the same (no reason after SKIP, the plan up front, one-line messages)
	local upstream=$TREE/tools/testing/selftests/kselftest/ktap_helpers.sh body ours theirs
	if [[ -f $upstream ]]; then
		# shellcheck disable=SC2016 # expanded by the inner bash
		for body in 'ktap_set_plan 5; ktap_test_pass a; ktap_test_skip b; ktap_test_xfail c; ktap_print_msg one line; ktap_test_result d true; ktap_test_result e false; ktap_finished' \
			'ktap_set_plan 2; ktap_test_pass a; ktap_test_skip b; ktap_finished' \
			'ktap_set_plan 3; ktap_test_pass a; ktap_finished' \
			'ktap_skip_all no such thing; exit "$KSFT_SKIP"'; do
			# shellcheck disable=SC2016 # expanded by the inner bash
			ours=$(set +e; bash -c '. "$1"; ktap_print_header; eval "$2"' - "$LAB_ROOT/tests/ktap.sh" "$body" 2>&1; echo "exit $?")
			# shellcheck disable=SC2016 # expanded by the inner bash
			theirs=$(set +e; bash -c '. "$1"; ktap_print_header; eval "$2"' - "$upstream" "$body" 2>&1; echo "exit $?")
			# (kselftest.h's line, which ktap_helpers.sh does not print)
			ours=$(grep -v '^# Planned tests != run tests' <<<"$ours" || true)
			if [[ $ours != "$theirs" ]]; then
				echo "$body: not as $upstream (- kselftest's, + ours):"
				diff <(echo "$theirs") <(echo "$ours") || true
				bad=1
			fi
		done
		((bad)) || echo "as kselftest's $upstream: the same output and status"
	else
		echo "no $upstream (make tree): not compared with kselftest's"
	fi
	return "$bad"
}

run_test ktap_reports_like_kselftest "$@"
