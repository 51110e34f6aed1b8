#!/bin/bash
# TREE= with uncommitted changes is refused in one line (the lab builds commits: the changes would
# silently not be measured), unless TREE_DIRTY=1; an untracked file is no change. Reading it does
# not refresh its index (git status --no-optional-locks): the checkout stays as it was.
# Plant: no check for uncommitted changes.
# Plant command: sed -i 's/if \[\[ \${TREE_DIRTY:-0} != 1 && /if [[ 0 == 1 \&\& /' scripts/lib/own-tree.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

own_tree_refuses_a_dirty_tree() {
	local t=$scratch/linux out
	export LAB_CACHE=$scratch/cache
	own_tree "$t" 7 4
	echo untracked >"$t/notes.txt"
	out=$(cd "$LAB_ROOT" && TREE=$t make -s -n compare 2>&1) || { echo "$out"; echo "an untracked file refused"; return 1; }
	echo change >>"$t/series.c"
	refused "TREE=$t: uncommitted changes" TREE="$t"
	git -C "$t" add series.c
	refused "TREE=$t: uncommitted changes" TREE="$t"
	out=$(cd "$LAB_ROOT" && TREE=$t TREE_DIRTY=1 make -s -n compare 2>&1) || { echo "$out"; echo "TREE_DIRTY=1 refused"; return 1; }
	echo "TREE_DIRTY=1: $(grep -c 'scripts/kernel.sh' <<<"$out") kernel lines"
	refused "TREE_DIRTY=yes: expected 0 or 1" TREE="$t" TREE_DIRTY=yes
}

run_test own_tree_refuses_a_dirty_tree "$@"
