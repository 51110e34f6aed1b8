#!/bin/bash
# A base of several series (patches/<base>/NN-name/), on three synthetic commits: series.sh writes
# each series into its directory from the commits after the branch that ends the series before it
# (lab-series/NN-name), a series of one patch without a cover-letter.txt gets no cover letter, and
# with the base's base-commit: trailer the later series names the earlier one's patch as
# prerequisite-patch-id:. series_hash sees a patch move to another series; patches beside series
# directories and a missing branch are refused in one line; mbox.sh writes one mbox per series and
# git am of both, in order, gives the commits' files.
# Plant: series_ranges ending every series at HEAD (its branch ignored): 01-first takes every
# commit and 02-second none.
# Plant command: sed -i 's|end=$(git -C "$tree" rev-parse "$ref^{commit}")|end=$(git -C "$tree" rev-parse HEAD)|' scripts/lib/patches.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

series_in_directories() {
	local i t=$scratch/two tp=$scratch/two-patches list want h1 h2 pid mboxes
	scratch_clone_of "$TREE" "$t"
	for i in 1 2 3; do
		echo "line $i" >>"$t/lab-two.txt"
		git -C "$t" add lab-two.txt
		git -C "$t" commit -q -s -m "lab: synthetic patch $i" -m "Patch $i of 3."
		((i > 1)) || git -C "$t" branch "${SERIES_BRANCH_PREFIX}01-first"
	done
	mkdir -p "$tp/01-first" "$tp/02-second"
	printf 'second series\n\nTwo patches on top of the first.\n' >"$tp/02-second/cover-letter.txt"
	LAB_PATCHES=$tp SERIES_TREE=$t "$S/series.sh" >/dev/null
	list=$(LAB_PATCHES=$tp bash -c '. "$1/lib.sh"; series_patches' - "$S" | sed "s|^$tp/||" | xargs)
	echo "series_patches: $list"
	want="01-first/0001-lab-synthetic-patch-1.patch 02-second/0001-lab-synthetic-patch-2.patch 02-second/0002-lab-synthetic-patch-3.patch"
	[[ $list == "$want" ]] || { echo "expected: $want"; return 1; }
	[[ ! -e $tp/01-first/0000-cover-letter.patch ]] || { echo "01-first, one patch without cover-letter.txt, got a cover letter"; return 1; }
	grep -qE "^Subject: \\[$SUBJECT_PREFIX 0/2\\] second series$" "$tp/02-second/0000-cover-letter.patch" ||
		{ echo "02-second: no cover letter '[$SUBJECT_PREFIX 0/2] second series'"; return 1; }
	if [[ $BASE_COMMIT_TRAILER == 1 ]]; then
		pid=$(git -C "$t" show "${SERIES_BRANCH_PREFIX}01-first" | git -C "$t" patch-id --stable | cut -c1-40)
		grep -qx "prerequisite-patch-id: $pid" "$tp/02-second/0000-cover-letter.patch" ||
			{ echo "02-second's cover letter does not name 01-first's patch ($pid)"; return 1; }
		grep -q '^base-commit: ' "$tp/01-first/0001-lab-synthetic-patch-1.patch" ||
			{ echo "01-first's patch has no base-commit:"; return 1; }
	fi
	# tree.sh's stamp covers which series a patch is in.
	h1=$(LAB_PATCHES=$tp bash -c '. "$1/lib.sh"; series_hash' - "$S")
	mv "$tp/02-second/0001-lab-synthetic-patch-2.patch" "$tp/01-first/0002-lab-synthetic-patch-2.patch"
	h2=$(LAB_PATCHES=$tp bash -c '. "$1/lib.sh"; series_hash' - "$S")
	mv "$tp/01-first/0002-lab-synthetic-patch-2.patch" "$tp/02-second/0001-lab-synthetic-patch-2.patch"
	[[ $h1 != "$h2" ]] || { echo "series_hash does not see a patch move to another series"; return 1; }
	# One mbox per series; both, in order, give the commits' files.
	mapfile -t mboxes < <(LAB_PATCHES=$tp "$S/mbox.sh" "$scratch/two-mbox")
	[[ ${mboxes[*]} == "$scratch/two-mbox/01-first.mbox $scratch/two-mbox/02-second.mbox" ]] ||
		{ echo "mbox.sh wrote: ${mboxes[*]}"; return 1; }
	scratch_worktree "$scratch/two-am"
	git -C "$scratch/two-am" am -q --empty=drop "${mboxes[@]}"
	[[ $(git -C "$scratch/two-am" rev-parse 'HEAD^{tree}') == $(git -C "$t" rev-parse 'HEAD^{tree}') ]] ||
		{ echo "git am of the two mboxes gives other files"; return 1; }
	git -C "$TREE" worktree remove --force "$scratch/two-am"
	# Refused in one line: patches beside series directories, and a series' branch lost.
	cp "$tp/01-first/0001-lab-synthetic-patch-1.patch" "$tp/0001-stray.patch"
	expect_fail "has patches beside its series directories" env LAB_PATCHES="$tp" SERIES_TREE="$t" "$S/series.sh"
	rm "$tp/0001-stray.patch"
	git -C "$t" branch -q -D "${SERIES_BRANCH_PREFIX}01-first"
	expect_fail "has no branch ${SERIES_BRANCH_PREFIX}01-first" env LAB_PATCHES="$tp" SERIES_TREE="$t" "$S/series.sh"
	[[ $(LAB_PATCHES=$tp bash -c '. "$1/lib.sh"; series_patches' - "$S" | wc -l) == 3 ]] ||
		{ echo "series.sh deleted patches before it refused"; return 1; }
}

run_test series_in_directories "$@"
