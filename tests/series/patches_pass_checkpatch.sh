#!/bin/bash
# Every patch of the series passes checkpatch --strict (scripts/gates.sh -g checkpatch), with the
# findings config/checkpatch-allowlist allows and nothing else: one "ok" line a patch. No kernel
# build: the bases whose full gates run in make check-slow keep this one in make check.
# Plant: a patch with a checkpatch --strict finding (a line of its diff over 100 columns).
# Plant: gates.sh -g checkpatch running no gate (its checkpatch line dropped).
# Plant command: sed -i '/! wants checkpatch || gate/d' scripts/gates.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

patches_pass_checkpatch() {
	local out n
	need_patches
	out=$("$S/gates.sh" -g checkpatch) || { echo "$out"; return 1; }
	echo "$out"
	n=$(patches | wc -l)
	[[ $(grep -c '^ok .*\.patch: checkpatch$' <<<"$out") == "$n" ]] ||
		{ echo "expected $n lines 'ok <patch>: checkpatch'"; return 1; }
}

run_test patches_pass_checkpatch "$@"
