#!/bin/bash
# "The series' patches" has one definition (lib.sh's series_patches, one_series_patches for the
# patches of one series directory), and it holds for a series of
# 12: 0010 is a patch like any other, 0000 the cover letter. A synthetic series of 12 commits goes
# through series.sh, series_hash (tree.sh's stamp), apply-series.sh and mbox.sh + git am.
# Plant: series_patches with the old glob [0-9][0-9][0-9][1-9]-*.patch, which loses 0010.
# Plant command: sed -i 's/"\$1"\/\[0-9\]\[0-9\]\[0-9\]\[0-9\]-\*\.patch/"$1"\/[0-9][0-9][0-9][1-9]-*.patch/' scripts/lib/patches.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

series_of_twelve_patches() {
	local i p12=$scratch/p12 list h1 h2 own
	own=$(grep -l '\[0-9\]\[0-9\]\[0-9\]' "$S"/*.sh "$S"/compare/*.sh | grep -v '/lib\.sh$' || true)
	[[ -z $own ]] || { echo "patch globs outside lib.sh: $own"; return 1; }
	scratch_worktree "$scratch/twelve"
	for i in $(seq 1 12); do
		echo "line $i" >>"$scratch/twelve/lab-twelve.txt"
		git -C "$scratch/twelve" add lab-twelve.txt
		git -C "$scratch/twelve" commit -q -s -m "lab: synthetic patch $i" -m "Patch $i of 12."
	done
	mkdir -p "$p12"
	printf 'twelve synthetic patches\n\nA series of 12, for check.sh.\n' >"$p12/cover-letter.txt"
	LAB_PATCHES=$p12 SERIES_TREE=$scratch/twelve "$S/series.sh" >/dev/null
	list=$(LAB_PATCHES=$p12 bash -c '. "$1/lib.sh"; series_patches' - "$S" | xargs -n1 basename | cut -c1-4 | xargs)
	echo "series_patches: $list"
	[[ $list == "$(seq -f %04g -s ' ' 1 12)" ]] || { echo "expected 0001 ... 0012"; return 1; }
	[[ -f $p12/0000-cover-letter.patch ]] || { echo "no cover letter"; return 1; }
	# The stamp of tree.sh covers every patch: 0010 changed means patches/ changed.
	h1=$(LAB_PATCHES=$p12 bash -c '. "$1/lib.sh"; series_hash' - "$S")
	echo " " >>"$p12/0010-lab-synthetic-patch-10.patch"
	h2=$(LAB_PATCHES=$p12 bash -c '. "$1/lib.sh"; series_hash' - "$S")
	[[ $h1 != "$h2" ]] || { echo "series_hash does not see a change of 0010"; return 1; }
	scratch_worktree "$scratch/twelve-am"
	# shellcheck disable=SC2046 # one word per patch
	"$S/apply-series.sh" "$scratch/twelve-am" $(LAB_PATCHES=$p12 bash -c '. "$1/lib.sh"; series_patches' - "$S")
	[[ $(git -C "$scratch/twelve-am" rev-list --count "$BASE_TAG..HEAD") == 12 ]] || { echo "apply-series: not 12 commits"; return 1; }
	[[ $(LAB_PATCHES=$p12 "$S/mbox.sh" "$scratch/mbox") == "$scratch/mbox/series.mbox" ]] ||
		{ echo "mbox: a flat series is not one series.mbox"; return 1; }
	mv "$scratch/mbox/series.mbox" "$scratch/twelve.mbox"
	[[ $(grep -c '^From 0\{40\} Mon Sep 17' "$scratch/twelve.mbox") == 13 ]] || { echo "mbox: not 13 messages"; return 1; }
	# the base's subject prefix (series.conf): "PATCH", or "PATCH bpf-next"
	grep -qxE "Subject: \\[$SUBJECT_PREFIX 0+/12\\] twelve synthetic patches" "$scratch/twelve.mbox" ||
		{ echo "mbox: no cover letter '[$SUBJECT_PREFIX 00/12] twelve synthetic patches'"; return 1; }
	scratch_worktree "$scratch/twelve-mbox"
	git -C "$scratch/twelve-mbox" am -q --empty=drop "$scratch/twelve.mbox"
	[[ $(git -C "$scratch/twelve-mbox" rev-parse 'HEAD^{tree}') == $(git -C "$scratch/twelve" rev-parse 'HEAD^{tree}') ]] ||
		{ echo "mbox: git am gives another tree"; return 1; }
	for i in twelve twelve-am twelve-mbox; do
		git -C "$TREE" worktree remove --force "$scratch/$i"
	done
}

run_test series_of_twelve_patches "$@"
