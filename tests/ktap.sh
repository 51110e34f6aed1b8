# KTAP output and kselftest's exit codes, for every test of the lab: tests/lib.sh (the lab's tests,
# tests/<tier>/) and tests/bench/lib.sh (the tests of a built bench) source it. Self-contained:
# bash and coreutils only, no lab, so that a test of tests/bench/ runs anywhere a bench does.
# Source it; do not run it. Its names, and what they print and return, are those of kselftest's
# tools/testing/selftests/kselftest/ktap_helpers.sh, so that a test written with them runs with
# that file in its place (written here, not copied):
#   ktap_print_header            "TAP version 13", first
#   ktap_set_plan N              the plan, "1..N"
#   ktap_test_pass DESC          a case passed: "ok N DESC"
#   ktap_test_fail DESC          a case failed: "not ok N DESC"
#   ktap_test_skip DESC          a case skipped: "ok N DESC # SKIP"
#   ktap_test_xfail DESC         a case failed as expected: "ok N DESC # XFAIL"
#   ktap_test_result DESC CMD... pass if CMD succeeds, else fail
#   ktap_print_msg TEXT          diagnostics: "# " before each line of TEXT
#   ktap_skip_all REASON...      nothing can run here: "1..0 # SKIP REASON"; the caller then exits
#                                with $KSFT_SKIP
#   ktap_exit_fail_msg REASON... "Bail out! REASON", the totals, exit $KSFT_FAIL
#   ktap_print_totals            "# Totals: pass:N fail:N xfail:N xpass:0 skip:N error:0"
#   ktap_finished                the totals, then exit $KSFT_PASS when every planned case passed,
#                                was skipped or failed as expected, else $KSFT_FAIL
#   KTAP_TESTNO (the next case's number), KTAP_CNT_PASS, KTAP_CNT_FAIL, KTAP_CNT_XFAIL,
#   KTAP_CNT_SKIP, KSFT_NUM_TESTS (the plan), KSFT_PASS=0 KSFT_FAIL=1 KSFT_XFAIL=2 KSFT_XPASS=3
#   KSFT_SKIP=4
# Two additions, which kselftest's file ignores: ktap_test_skip takes a reason after DESC ("ok N
# DESC # SKIP REASON"); and a test that set no plan gets it from ktap_finished, "1..N" after its
# cases (kselftest's ktap_finished counts such a test as failed: tests/bench/ still plan late).
# When the cases run do not match the plan, ktap_finished says so first, as kselftest.h's does.
# shellcheck shell=bash

# shellcheck disable=SC2034 # read by the tests
KSFT_PASS=0 KSFT_FAIL=1 KSFT_XFAIL=2 KSFT_XPASS=3 KSFT_SKIP=4
KTAP_TESTNO=1 KTAP_CNT_PASS=0 KTAP_CNT_FAIL=0 KTAP_CNT_XFAIL=0 KTAP_CNT_SKIP=0
KSFT_NUM_TESTS=0 ktap_plan_set=0

ktap_print_header() {
	echo "TAP version 13"
}

ktap_print_msg() {
	local line
	while IFS= read -r line; do
		echo "# $line"
	done <<<"$*"
}

ktap_set_plan() {
	KSFT_NUM_TESTS=$1 ktap_plan_set=1
	echo "1..$KSFT_NUM_TESTS"
}

ktap_skip_all() {
	echo "1..0 # SKIP $*"
}

# ktap_case RESULT DESC [DIRECTIVE]: one case's line, numbered
ktap_case() {
	echo "$1 $KTAP_TESTNO $2${3:+ # $3}"
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
}

ktap_test_pass() {
	ktap_case ok "$1"
	KTAP_CNT_PASS=$((KTAP_CNT_PASS + 1))
}

ktap_test_fail() {
	ktap_case "not ok" "$1"
	KTAP_CNT_FAIL=$((KTAP_CNT_FAIL + 1))
}

ktap_test_skip() {
	ktap_case ok "$1" "SKIP${2:+ $2}"
	KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1))
}

ktap_test_xfail() {
	ktap_case ok "$1" XFAIL
	KTAP_CNT_XFAIL=$((KTAP_CNT_XFAIL + 1))
}

ktap_test_result() {
	local desc=$1
	shift
	if "$@"; then
		ktap_test_pass "$desc"
	else
		ktap_test_fail "$desc"
	fi
}

ktap_print_totals() {
	((KTAP_CNT_SKIP == 0)) ||
		echo "# $KTAP_CNT_SKIP skipped test(s) detected.  Consider enabling relevant config options to improve coverage."
	echo "# Totals: pass:$KTAP_CNT_PASS fail:$KTAP_CNT_FAIL xfail:$KTAP_CNT_XFAIL xpass:0 skip:$KTAP_CNT_SKIP error:0"
}

ktap_exit_fail_msg() {
	echo "Bail out! $*"
	ktap_print_totals
	exit "$KSFT_FAIL"
}

ktap_finished() {
	local ran=$((KTAP_TESTNO - 1))
	if ((!ktap_plan_set)); then
		KSFT_NUM_TESTS=$ran
		echo "1..$ran"
	elif ((ran != KSFT_NUM_TESTS)); then
		echo "# Planned tests != run tests ($KSFT_NUM_TESTS != $ran)"
	fi
	ktap_print_totals
	((KTAP_CNT_PASS + KTAP_CNT_SKIP + KTAP_CNT_XFAIL == KSFT_NUM_TESTS)) || exit "$KSFT_FAIL"
	exit "$KSFT_PASS"
}
