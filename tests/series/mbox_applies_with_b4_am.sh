#!/bin/bash
# The series as mboxes (make mbox: one per series), each fetched with b4 am -m, apply with git am
# in order and give the tree's commits: same files, author, subject, body and trailers.
# Plant: the same old awk mbox.sh as for mbox_applies_with_git_am.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

mbox_applies_with_b4_am() {
	local mboxes mbox name mbx=()
	need_patches
	mapfile -t mboxes < <("$S/mbox.sh" "$scratch/mbox")
	for mbox in "${mboxes[@]}"; do
		name=$(basename "$mbox" .mbox)
		mkdir -p "$scratch/b4/$name"
		(cd "$scratch/b4/$name" && b4 -q am -m "$mbox" -o "$scratch/b4/$name" </dev/null)
		mbx+=("$scratch/b4/$name"/*.mbx)
	done
	am_matches_series b4-tree "${mbx[@]}"
}

run_test mbox_applies_with_b4_am "$@"
