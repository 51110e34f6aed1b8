# Helpers for the bench tests: kselftest's TAP output ("ok N what", "not ok N what",
# "ok N what # SKIP why", the plan "1..N" at the end) and exit codes (0 pass, 1 fail, 4 skip).
# Source it; BENCH is the bench binary to test (default ./bench).
# shellcheck shell=bash
# shellcheck source=../../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

BENCH=${BENCH:-./bench}
[[ -x $BENCH ]] || die "no bench binary at '$BENCH' (set BENCH=)"
tap_n=0
tap_failed=0
tap_skipped=0
echo "TAP version 13"

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n $*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n $*"
}

skip() {
	tap_n=$((tap_n + 1))
	tap_skipped=$((tap_skipped + 1))
	echo "ok $tap_n $1 # SKIP $2"
}

# comment TEXT: TEXT as TAP diagnostics, one "# " line per line
comment() {
	# shellcheck disable=SC2001 # a prefix on every line of a multi-line text
	sed 's/^/# /' <<<"$*"
}

# tap_done: the plan, a summary line, and the exit code
tap_done() {
	echo "1..$tap_n"
	echo "# $((tap_n - tap_failed - tap_skipped)) passed, $tap_failed failed, $tap_skipped skipped"
	((tap_failed == 0)) || exit 1
	((tap_n > tap_skipped)) || exit 4
	exit 0
}

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
