#!/bin/bash
# The series as one mbox (make mbox), cover letter first with the subject of
# patches/<base>/cover-letter.txt, applies with git am --empty=drop and gives the tree's commits.
# Plant: the old awk mbox.sh (git show e9ff5a3:scripts/mbox.sh), which cut commit messages short.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

mbox_applies_with_git_am() {
	local mbox subject want
	need_patches
	mbox=$("$S/mbox.sh" "$scratch/series.mbox")
	# The cover letter comes first, with the subject of patches/cover-letter.txt.
	subject=$(sed -n 's/^Subject: //p' "$mbox" | head -n1)
	want="[$SUBJECT_PREFIX 0/$(patches | wc -l)] $(head -n1 "$PATCHES/cover-letter.txt")"
	[[ ${subject/#\[$SUBJECT_PREFIX 00/[$SUBJECT_PREFIX 0} == "$want" ]] ||	# git numbers 00/10 from 10 patches on
		{ echo "cover letter subject '$subject', expected '$want'"; return 1; }
	am_matches_series mbox-tree --empty=drop "$mbox"
}

run_test mbox_applies_with_git_am "$@"
