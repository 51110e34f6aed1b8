#!/bin/bash
# tree.sh never loses work: with patches/ changed it refuses to rebuild over uncommitted changes
# or commits that are not in patches/, names them and the command that keeps them; after a failed
# git am it says so again, not something false; series.sh then does not delete the patches
# that were not applied. make kernel says that it builds HEAD. Two runs on one tree take turns.
# A TREE that tree.sh did not make (a developer's own clone, say) is never replaced: make bench,
# compare and scaling all run tree.sh, and an unguarded one once deleted such a clone.
# Plant: tree.sh without its check for a TREE it did not make (it then replaces it).
# Plant command: sed -i 's/if \[\[ -e \$TREE \]\] && \[\[ -n \$(ls -A "\$TREE") \]\]; then/if false; then/' scripts/tree.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

tree_leaves_a_foreign_tree_alone() {
	local dir=$scratch/foreign
	mkdir -p "$dir"
	git -C "$dir" init -q
	echo "work" >"$dir/marker"
	expect_fail "$dir exists but was not made by tree.sh" env LAB_TREE="$dir" "$S/tree.sh"
	[[ $(cat "$dir/marker" 2>/dev/null) == work ]] || { echo "the foreign tree was replaced"; return 1; }
}

run_test tree_leaves_a_foreign_tree_alone "$@"
