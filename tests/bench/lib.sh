# What the tests of the selftests `bench` share: KTAP output (tests/ktap.sh), the bench under test,
# and the checks of bench's option errors. Self-contained (bash and coreutils only), so that a
# test runs against any built bench, from any directory, as a kselftest would:
#   BENCH=/path/to/bench tests/bench/test_bench_NAME.sh
# Source it from a test (after `set -euo pipefail`): it prints the KTAP header. A test reports with
# ktap_test_pass / ktap_test_fail / ktap_test_skip, adds diagnostics with ktap_print_msg, and ends
# with ktap_finished (kselftest's names: tests/ktap.sh); without a bench at $BENCH it is skipped.
# shellcheck shell=bash
shopt -s inherit_errexit	# the test's set -e reaches into $(...) too
# shellcheck source=../ktap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../ktap.sh"
ktap_print_header

BENCH=${BENCH:-./bench}
if [[ ! -x $BENCH ]]; then
	ktap_skip_all "no bench at '$BENCH' (BENCH=/path/to/bench)"
	exit "$KSFT_SKIP"
fi

# need_root: skip the whole test unless it runs as root
need_root() {
	if ((EUID != 0)); then
		ktap_skip_all "needs root"
		exit "$KSFT_SKIP"
	fi
}

# bench_rejects MESSAGE BENCH-ARGS...: bench must exit with status 1 and print exactly one line, on
# stderr, containing MESSAGE.
bench_rejects() {
	local want=$1 err rc=0
	shift
	err=$("$BENCH" "$@" 2>&1 >/dev/null) || rc=$?
	if ((rc != 1)); then
		ktap_test_fail "bench $*: exit status $rc, expected 1"
		ktap_print_msg "$err"
	elif [[ $(wc -l <<<"$err") != 1 || $err != *"$want"* ]]; then
		ktap_test_fail "bench $*: expected one line with '$want'"
		ktap_print_msg "$err"
	else
		ktap_test_pass "bench $*: $err"
	fi
}

# bench_rejects_with STATUS MESSAGE BENCH-ARGS...: bench must exit with STATUS and say MESSAGE on
# stderr (for errors bench reports through argp_usage(), which adds its usage lines).
bench_rejects_with() {
	local status=$1 want=$2 err rc=0
	shift 2
	err=$("$BENCH" "$@" 2>&1 >/dev/null) || rc=$?
	if ((rc != status)); then
		ktap_test_fail "bench $*: exit status $rc, expected $status"
		ktap_print_msg "$err"
	elif [[ $err != *"$want"* ]]; then
		ktap_test_fail "bench $*: expected '$want'"
		ktap_print_msg "$err"
	else
		ktap_test_pass "bench $*: $(head -n1 <<<"$err")"
	fi
}
