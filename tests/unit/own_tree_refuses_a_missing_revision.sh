#!/bin/bash
# TREE= with a SERIES_REV or BASE_REV that the checkout does not have is refused in one line,
# naming the knob, before anything runs; so is BASE_REV, SERIES_REV or TREE_DIRTY without TREE,
# and RECORD=1 with it (records/ are the lab's series'), and a base that is the series' own commit.
# Plant: SERIES_REV ignored (the checkout's HEAD taken instead).
# Plant command: sed -i 's/--verify -q "${SERIES_REV:-HEAD}^{commit}")/--verify -q "HEAD^{commit}")/' scripts/lib/own-tree.sh
# Plant: a base that is the series' commit accepted.
# Plant command: sed -i 's/^\t\[\[ \$base != "\$series" \]\] ||$/\ttrue ||/' scripts/lib/own-tree.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

own_tree_refuses_a_missing_revision() {
	local t=$scratch/linux
	export LAB_CACHE=$scratch/cache
	own_tree "$t" 7 4
	refused "TREE=$t: SERIES_REV=nosuch: no such revision" TREE="$t" SERIES_REV=nosuch
	refused "TREE=$t: BASE_REV=nosuch: no such revision" TREE="$t" BASE_REV=nosuch
	refused "BASE_REV=main: only with TREE=" BASE_REV=main
	refused "RECORD=1: records/ hold what the lab's own series measured" TREE="$t" RECORD=1
	refused "TREE=$t: the base and the series are one commit" TREE="$t" BASE_REV=HEAD
	# a branch without an upstream and no BASE_REV: no base to compare with
	git -C "$t" checkout -q -b alone
	refused "TREE=$t: no base revision: set BASE_REV" TREE="$t"
}

run_test own_tree_refuses_a_missing_revision "$@"
