#!/bin/bash
# The kernel's build (scripts/kernel.sh) and the selftests' (scripts/bench-build.sh) run through one
# helper, build_logged NAME WHAT LOG CMD... of scripts/lib/config.sh: the build's output goes to
# LOG, which its step lines name; a failed build prints the log's first 20 error lines and one last
# line, "error: NAME failed, see LOG", and exits 1, also when the log holds no error line (the copy
# each script had then stopped at its grep, pipefail, without saying which log). No other script
# greps a build log for errors.
# Plant: the helper's grep stopping it (pipefail) when the log has no error line.
# Plant command: sed -i "s/^\t{ grep -E 'error|Error' \"\$log\" || true; } | head -n 20 >\&2$/\tgrep -E 'error|Error' \"\$log\" | head -n 20 >\&2/" scripts/lib/config.sh
# Plant: kernel.sh grepping its log its own way again.
# Plant command: printf '%s\n' "grep -E 'error|Error' \"\$log\" | head -n 20 >&2 || true" >>scripts/kernel.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# in_a_script LOG SHELL: build_logged of the build SHELL (bash -c) with its log LOG, in a script
# of the lab's kind (set -euo pipefail, scripts/lib.sh sourced), as kernel.sh calls it
in_a_script() {
	# shellcheck disable=SC2016 # the script's own $1, $2, $3
	bash -c 'set -euo pipefail; . "$1/scripts/lib.sh"; build_logged "fake build" "building fake" "$2" bash -c "$3"' - \
		"$LAB_ROOT" "$1" "$2"
}

builds_logged_in_one_place() {
	local bad=0 out rc copies
	# a build that works: its output in the log alone, the step's lines on stderr
	out=$(build_logged "fake build" "building fake" "$scratch/ok.log" bash -c 'echo progress; echo warning >&2' 2>"$scratch/ok.err")
	cat "$scratch/ok.err"
	[[ -z $out && $(cat "$scratch/ok.log") == $'progress\nwarning' ]] || { echo "expected the output in the log alone"; bad=1; }
	[[ $(head -n 1 "$scratch/ok.err") == ">>> building fake (log: $scratch/ok.log) ..." ]] || { echo "expected the step to name its log"; bad=1; }
	# a build that fails, with 30 error lines in its log: the first 20, then the one last line
	rc=0
	# shellcheck disable=SC2016 # the inner bash expands $i
	in_a_script "$scratch/bad.log" 'for i in $(seq 30); do echo "x.c:$i: error: bad $i"; done; echo noise; exit 2' 2>"$scratch/bad.err" || rc=$?
	sed -n '1p;$p' "$scratch/bad.err"
	[[ $rc == 1 && $(grep -c '^x.c:[0-9]*: error: ' "$scratch/bad.err") == 20 && $(grep -c 'x.c:21:' "$scratch/bad.err") == 0 ]] ||
		{ echo "expected exit 1 (got $rc) and the log's first 20 error lines"; bad=1; }
	[[ $(tail -n 1 "$scratch/bad.err") == "error: fake build failed, see $scratch/bad.log" ]] || { echo "expected the last line to name the log"; bad=1; }
	# a build that fails without an error line in its log: the same last line
	rc=0
	in_a_script "$scratch/quiet.log" 'echo Killed; exit 137' 2>"$scratch/quiet.err" || rc=$?
	tail -n 1 "$scratch/quiet.err"
	[[ $rc == 1 && $(tail -n 1 "$scratch/quiet.err") == "error: fake build failed, see $scratch/quiet.log" ]] ||
		{ echo "expected exit 1 (got $rc) and the line naming the log, with no error line in it"; bad=1; }
	# the one place
	# shellcheck disable=SC2016 # $log, as the scripts write it
	copies=$(cd "$LAB_ROOT" || exit; grep -rnE 'grep -E .?error\|Error.? "?\$' scripts tools .ci | grep -v '^scripts/lib/config\.sh:' || true)
	[[ -z $copies ]] || { echo "a build log grepped outside build_logged:"; echo "$copies"; bad=1; }
	for f in scripts/kernel.sh scripts/bench-build.sh; do
		grep -q '^build_logged ' "$LAB_ROOT/$f" || { echo "$f does not build with build_logged"; bad=1; }
	done
	((bad == 0))
}

run_test builds_logged_in_one_place "$@"
