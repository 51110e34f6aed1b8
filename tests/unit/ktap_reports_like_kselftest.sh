#!/bin/bash
# tests/ktap.sh, the lab's one KTAP library, writes what kselftest's readers expect: the header
# once and first, the plan (up front, or at the end when none was given), "ok N", "not ok N",
# "ok N NAME # SKIP reason", "1..0 # SKIP reason" for a test that cannot run, "Bail out!", the
# totals; and exits 0 when all passed, 1 when a case failed or fewer cases ran than planned, 4 when
# every case was skipped. Each case here is a small script that sources it, in a clean shell.
# Plant: a test that ran fewer cases than its plan passes.
# Plant command: sed -i '/^\t\techo "# planned /{n;d}' tests/ktap.sh
# Plant: a test whose every case was skipped passes (exit 0, not kselftest's 4).
# Plant command: sed -i 's/^\t((ktap_n > ktap_skipped)) || exit "\$KSFT_SKIP"$/\t:/' tests/ktap.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# expect NAME STATUS OUTPUT BODY: BODY, run by a bash that sourced tests/ktap.sh, must print
# OUTPUT exactly and exit with STATUS.
expect() {
	local name=$1 status=$2 want=$3 body=$4 out rc=0
	# shellcheck disable=SC2016 # expanded by the inner bash
	out=$(env -i PATH="$PATH" bash -c 'set -euo pipefail; . "$1"; eval "$2"' - "$LAB_ROOT/tests/ktap.sh" "$body" 2>&1) || rc=$?
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
# Totals: pass:2 fail:0 skip:0' 'ktap_plan 2; ktap_ok first; ktap_ok second; ktap_finish' || bad=1
	expect "plan at the end, one fails, diagnostics" 1 'TAP version 13
ok 1 first
# two
# lines
not ok 2 second
1..2
# Totals: pass:1 fail:1 skip:0' 'ktap_ok first; ktap_comment "two
lines"; ktap_not_ok second; ktap_finish' || bad=1
	expect "a skip among passes" 0 'TAP version 13
ok 1 first
ok 2 second # SKIP needs root
1..2
# Totals: pass:1 fail:0 skip:1' 'ktap_ok first; ktap_skip second needs root; ktap_finish' || bad=1
	expect "every case skipped" 4 'TAP version 13
1..1
ok 1 only # SKIP no bench
# Totals: pass:0 fail:0 skip:1' 'ktap_plan 1; ktap_skip only no bench; ktap_finish' || bad=1
	expect "fewer cases than planned" 1 'TAP version 13
1..3
ok 1 first
ok 2 second
# planned 3 cases, ran 2
# Totals: pass:2 fail:1 skip:0' 'ktap_plan 3; ktap_ok first; ktap_ok second; ktap_finish' || bad=1
	expect "nothing can run here" 4 'TAP version 13
1..0 # SKIP needs no-such-command-here' 'ktap_require_cmd bash; ktap_require_cmd no-such-command-here; ktap_ok never' || bad=1
	expect "bail out" 1 'TAP version 13
ok 1 first
Bail out! no test named x' 'ktap_ok first; ktap_bail no test named x; ktap_ok never' || bad=1
	return "$bad"
}

run_test ktap_reports_like_kselftest "$@"
