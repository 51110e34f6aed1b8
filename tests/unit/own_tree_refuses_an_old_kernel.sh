#!/bin/bash
# TREE= whose SERIES_REV or BASE_REV is a kernel older than the oldest base of config/ (the lab
# has no config for it), or no kernel at all (no VERSION in its Makefile), is refused in one line.
# Plant: no minimum version.
# Plant command: sed -i 's/\[\[ -n \$(own_tree_base \$ver) \]\] ||/true ||/' scripts/lib/own-tree.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

own_tree_refuses_an_old_kernel() {
	local t=$scratch/linux oldest
	oldest=$(lab_bases | head -n1)
	export LAB_CACHE=$scratch/cache
	own_tree "$t" 5 15
	refused "TREE=$t: SERIES_REV=HEAD is Linux 5.15, older than the lab supports (the oldest base: $oldest" TREE="$t"
	own_tree "$scratch/old-base" 6 0
	sed -i 's/^PATCHLEVEL = 0/PATCHLEVEL = 12/' "$scratch/old-base/Makefile"
	git -C "$scratch/old-base" -c user.name=dev -c user.email=dev@localhost commit -q -am 6.12
	refused "TREE=$scratch/old-base: BASE_REV=HEAD~2 is Linux 6.0, older than the lab supports" \
		TREE="$scratch/old-base" BASE_REV=HEAD~2
	git -C "$t" rm -q Makefile
	git -C "$t" -c user.name=dev -c user.email=dev@localhost commit -q -m 'no kernel'
	refused "TREE=$t: SERIES_REV=HEAD (" TREE="$t"
}

run_test own_tree_refuses_an_old_kernel "$@"
