#!/bin/bash
# TREE= that is no git checkout (a plain directory, a path that does not exist) is refused in one
# line, before anything runs, with a non-zero exit.
# Plant: the check gone (the next step then fails with another line).
# Plant command: sed -i 's/^\t\[\[ -n \$top \]\] || die "TREE=\$TREE: not a git tree/\t[[ -n $top ]] || top=$TREE; true || die "TREE=$TREE: not a git tree/' scripts/lib/own-tree.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

own_tree_refuses_a_directory_without_git() {
	export LAB_CACHE=$scratch/cache
	mkdir -p "$scratch/plain"
	echo 'VERSION = 7' >"$scratch/plain/Makefile"
	refused "TREE=$scratch/plain: not a git tree" TREE="$scratch/plain"
	refused "TREE=$scratch/nowhere: not a git tree" TREE="$scratch/nowhere"
}

run_test own_tree_refuses_a_directory_without_git "$@"
