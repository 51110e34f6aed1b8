# What the tests of the selftests `bench` share: KTAP output (tests/ktap.sh), the bench under test,
# and the checks of bench's option errors. Self-contained (bash and coreutils only), so that a
# test runs against any built bench, from any directory, as a kselftest would:
#   BENCH=/path/to/bench tests/bench/test_bench_NAME.sh
# Source it from a test (after `set -euo pipefail`). A test reports with ktap_ok / ktap_not_ok /
# ktap_skip, adds diagnostics with ktap_comment, and ends with ktap_finish; without a bench at
# $BENCH it is skipped.
# shellcheck shell=bash
shopt -s inherit_errexit	# the test's set -e reaches into $(...) too
# shellcheck source=../ktap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../ktap.sh"

BENCH=${BENCH:-./bench}
[[ -x $BENCH ]] || ktap_skip_all "no bench at '$BENCH' (BENCH=/path/to/bench)"

# bench_rejects MESSAGE BENCH-ARGS...: bench must exit with status 1 and print exactly one line, on
# stderr, containing MESSAGE.
bench_rejects() {
	local want=$1 err rc=0
	shift
	err=$("$BENCH" "$@" 2>&1 >/dev/null) || rc=$?
	if ((rc != 1)); then
		ktap_not_ok "bench $*: exit status $rc, expected 1"
		ktap_comment "$err"
	elif [[ $(wc -l <<<"$err") != 1 || $err != *"$want"* ]]; then
		ktap_not_ok "bench $*: expected one line with '$want'"
		ktap_comment "$err"
	else
		ktap_ok "bench $*: $err"
	fi
}

# bench_rejects_with STATUS MESSAGE BENCH-ARGS...: bench must exit with STATUS and say MESSAGE on
# stderr (for errors bench reports through argp_usage(), which adds its usage lines).
bench_rejects_with() {
	local status=$1 want=$2 err rc=0
	shift 2
	err=$("$BENCH" "$@" 2>&1 >/dev/null) || rc=$?
	if ((rc != status)); then
		ktap_not_ok "bench $*: exit status $rc, expected $status"
		ktap_comment "$err"
	elif [[ $err != *"$want"* ]]; then
		ktap_not_ok "bench $*: expected '$want'"
		ktap_comment "$err"
	else
		ktap_ok "bench $*: $(head -n1 <<<"$err")"
	fi
}
