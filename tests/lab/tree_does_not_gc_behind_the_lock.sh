#!/bin/bash
# The lab's tree has automatic git gc off. git commit and git am start `git gc --auto` in the
# background after the base commit's tens of thousands of loose objects; it inherits tree.sh's
# lock and holds it for the minutes a repack of a kernel takes, so make regress sat at "waiting
# for another run" on a fresh machine with no other run. tree.sh turns it off in the trees it
# makes and in those it finds; this checks a tree it finds (every run after the first), the path
# that also mends trees made before the fix.
# Plant: tree.sh without its no_auto_gc call on a tree it finds.
# Plant command: sed -i 's/^\tno_auto_gc "\$TREE"$/\t: no_auto_gc "$TREE"/' scripts/tree.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

tree_does_not_gc_behind_the_lock() {
	local v
	"$S/tree.sh" >/dev/null
	git -C "$TREE" config --unset gc.auto || true
	"$S/tree.sh" >/dev/null
	v=$(git -C "$TREE" config gc.auto || echo unset)
	echo "gc.auto in $TREE: $v"
	[[ $v == 0 ]] || { echo "tree.sh leaves automatic gc on in its tree"; return 1; }
}

run_test tree_does_not_gc_behind_the_lock "$@"
