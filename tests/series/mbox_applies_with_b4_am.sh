#!/bin/bash
# The series as one mbox (make mbox), fetched with b4 am -m, applies with git am and gives the
# tree's commits: same files, author, subject, body and trailers.
# Plant: the same old awk mbox.sh as for mbox_applies_with_git_am.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

mbox_applies_with_b4_am() {
	local mbox
	need_patches
	mbox=$("$S/mbox.sh" "$scratch/series.mbox")
	mkdir -p "$scratch/b4"
	(cd "$scratch/b4" && b4 -q am -m "$mbox" -o "$scratch/b4")
	am_matches_series b4-tree "$scratch"/b4/*.mbx
}

run_test mbox_applies_with_b4_am "$@"
