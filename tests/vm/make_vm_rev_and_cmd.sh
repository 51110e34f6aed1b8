#!/bin/bash
# make vm: a REV that is not a commit fails with one line and boots nothing; CMD reaches the
# guest unexpanded ($HOME is the guest's, quotes survive).
# Plant: the Makefile expanding CMD (\$(CMD) instead of \$(value CMD)).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

make_vm_rev_and_cmd() {
	local out cmd
	expect_fail "^error: no commit 'no-such-rev' in " make -s -C "$LAB_ROOT" vm REV=no-such-rev CMD='echo booted'
	cmd=$(cat <<'CMD'
x=1; echo "home=$HOME x=$x" "it's" '$x' $(echo sub)
CMD
	)
	out=$(make -s -C "$LAB_ROOT" vm CMD="$cmd" 2>/dev/null)
	echo "$out"
	grep -qxF "home=$HOME x=1 it's \$x sub" <<<"$out"
}

run_test make_vm_rev_and_cmd "$@"
