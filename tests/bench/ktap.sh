# KTAP output and kselftest exit codes for the tests of the selftests `bench`, and the two checks
# of bench's option errors they share. Self-contained (bash and coreutils only), so that a test
# runs against any built bench, from any directory, as a kselftest would:
#   BENCH=/path/to/bench tests/bench/test_bench_NAME.sh
# Source it from a test (after `set -euo pipefail`); it prints the header. A test reports with
# ok / not_ok / skip, adds diagnostics with comment, and ends with ktap_finish: the plan, the
# totals, and the exit code: 0 when nothing failed, 1 when a test failed, 4 (kselftest's skip)
# when every test was skipped. ktap_skip_all stops a test that cannot run here at all.
# shellcheck shell=bash

BENCH=${BENCH:-./bench}
ktap_count=0
ktap_failed=0
ktap_skipped=0
echo "TAP version 13"

ok() {
	ktap_count=$((ktap_count + 1))
	echo "ok $ktap_count $*"
}

not_ok() {
	ktap_count=$((ktap_count + 1))
	ktap_failed=$((ktap_failed + 1))
	echo "not ok $ktap_count $*"
}

# skip NAME REASON
skip() {
	ktap_count=$((ktap_count + 1))
	ktap_skipped=$((ktap_skipped + 1))
	echo "ok $ktap_count $1 # SKIP $2"
}

# comment TEXT: TEXT as diagnostics, "# " before each of its lines
comment() {
	local line
	while IFS= read -r line; do
		echo "# $line"
	done <<<"$*"
}

ktap_finish() {
	echo "1..$ktap_count"
	echo "# $((ktap_count - ktap_failed - ktap_skipped)) passed, $ktap_failed failed, $ktap_skipped skipped"
	if ((ktap_failed > 0)); then
		exit 1
	fi
	if ((ktap_count == ktap_skipped)); then
		exit 4
	fi
	exit 0
}

# the lab's scripts/test-htab-mem.sh ends with this name
tap_done() {
	ktap_finish
}

# ktap_skip_all REASON: nothing of the test can run here (an empty plan with its reason, exit 4)
ktap_skip_all() {
	echo "1..0 # SKIP $*"
	exit 4
}

# need_root, need_cmd CMD...: skip the whole test without them
need_root() {
	if [[ $(id -u) != 0 ]]; then
		ktap_skip_all "needs root"
	fi
}

need_cmd() {
	local cmd
	for cmd in "$@"; do
		if ! command -v "$cmd" >/dev/null; then
			ktap_skip_all "needs $cmd"
		fi
	done
}

if [[ ! -x $BENCH ]]; then
	ktap_skip_all "no bench at '$BENCH' (BENCH=/path/to/bench)"
fi

# bad_option MESSAGE BENCH-ARGS...: bench must exit with status 1 and print exactly one line, on
# stderr, containing MESSAGE.
bad_option() {
	local want=$1 err rc=0
	shift
	err=$("$BENCH" "$@" 2>&1 >/dev/null) || rc=$?
	if ((rc != 1)); then
		not_ok "bench $*: exit status $rc, expected 1"
		comment "$err"
	elif [[ $(wc -l <<<"$err") != 1 || $err != *"$want"* ]]; then
		not_ok "bench $*: expected one line with '$want'"
		comment "$err"
	else
		ok "bench $*: $err"
	fi
}

# rejected STATUS MESSAGE BENCH-ARGS...: bench must exit with STATUS and say MESSAGE on stderr
# (for errors bench reports through argp_usage(), which adds its usage lines).
rejected() {
	local status=$1 want=$2 err rc=0
	shift 2
	err=$("$BENCH" "$@" 2>&1 >/dev/null) || rc=$?
	if ((rc != status)); then
		not_ok "bench $*: exit status $rc, expected $status"
		comment "$err"
	elif [[ $err != *"$want"* ]]; then
		not_ok "bench $*: expected '$want'"
		comment "$err"
	else
		ok "bench $*: $(head -n1 <<<"$err")"
	fi
}
