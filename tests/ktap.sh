# KTAP output and kselftest's exit codes, for every test of the lab: tests/lib.sh (the lab's tests,
# tests/<tier>/) and tests/bench/lib.sh (the tests of a built bench) source it. Self-contained:
# bash and coreutils only, no lab, so that a test of tests/bench/ runs anywhere a bench does.
# Source it; do not run it. Every name it defines starts with ktap_ (or KSFT_).
#   ktap_plan N                  the plan, when the number of cases is known up front
#   ktap_ok NAME                 a case passed
#   ktap_not_ok NAME             a case failed
#   ktap_skip NAME REASON...     a case skipped ("ok N NAME # SKIP REASON")
#   ktap_comment TEXT            diagnostics: "# " before each line of TEXT
#   ktap_skip_all REASON...      nothing can run here: an empty plan with its reason, exit 4
#   ktap_bail REASON...          "Bail out! REASON", exit 1 (the test itself is broken or misused)
#   ktap_finish                  the plan (if none was given), the totals, and the exit code:
#                                1 when a case failed or the cases do not match the plan, 4 when
#                                every case was skipped, 0 otherwise
#   ktap_require_root, ktap_require_cmd CMD...   ktap_skip_all without them
# The header ("TAP version 13") comes before the first line any of these prints.
# shellcheck shell=bash

# shellcheck disable=SC2034 # read by the tests
KSFT_PASS=0 KSFT_FAIL=1 KSFT_SKIP=4
ktap_planned='' ktap_n=0 ktap_failed=0 ktap_skipped=0 ktap_started=0

ktap_header() {
	((ktap_started)) || echo "TAP version 13"
	ktap_started=1
}

ktap_plan() {
	ktap_header
	ktap_planned=$1
	echo "1..$1"
}

ktap_ok() {
	ktap_header
	ktap_n=$((ktap_n + 1))
	echo "ok $ktap_n $*"
}

ktap_not_ok() {
	ktap_header
	ktap_n=$((ktap_n + 1))
	ktap_failed=$((ktap_failed + 1))
	echo "not ok $ktap_n $*"
}

ktap_skip() {
	ktap_header
	ktap_n=$((ktap_n + 1))
	ktap_skipped=$((ktap_skipped + 1))
	echo "ok $ktap_n $1 # SKIP ${*:2}"
}

ktap_comment() {
	local line
	ktap_header
	while IFS= read -r line; do
		echo "# $line"
	done <<<"$*"
}

ktap_skip_all() {
	ktap_header
	echo "1..0 # SKIP $*"
	exit "$KSFT_SKIP"
}

ktap_bail() {
	ktap_header
	echo "Bail out! $*"
	exit "$KSFT_FAIL"
}

ktap_finish() {
	local pass=$((ktap_n - ktap_failed - ktap_skipped))
	ktap_header
	if [[ -z $ktap_planned ]]; then
		echo "1..$ktap_n"
	elif ((ktap_planned != ktap_n)); then
		echo "# planned $ktap_planned cases, ran $ktap_n"
		ktap_failed=$((ktap_failed + 1))
	fi
	echo "# Totals: pass:$pass fail:$ktap_failed skip:$ktap_skipped"
	((ktap_failed == 0)) || exit "$KSFT_FAIL"
	((ktap_n > ktap_skipped)) || exit "$KSFT_SKIP"
	exit "$KSFT_PASS"
}

ktap_require_root() {
	((EUID == 0)) || ktap_skip_all "needs root"
}

ktap_require_cmd() {
	local cmd
	for cmd in "$@"; do
		command -v "$cmd" >/dev/null || ktap_skip_all "needs $cmd"
	done
}
