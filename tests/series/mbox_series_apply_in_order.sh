#!/bin/bash
# Each series' mbox (make mbox: one per series of patches/<base>/, in the order they apply) applies
# with git am on the base plus the series before it, mbox after mbox, and leaves the files of that
# series' end in the lab's tree (its lab-series/ branch; the last series: HEAD). With series.conf's
# base-commit: trailer, a series names the base and, as prerequisite-patch-id: lines, the
# patch-ids of every patch of the series it needs (series.conf's SERIES_PREREQUISITES; without
# it, every series before it) (git format-patch --base), as b4 reads them.
# Listed for 7.3, the base of several series (on a flat base it is mbox_applies_with_git_am).
# Plant: mbox.sh formatting every series from the base (the start of each never moved on), so that
# 03-freelist.mbox carries the patches of 01-getpgid and 02-full-update again and does not apply
# on top of them.
# Plant command: sed -i 's|^\tstart=$(git -C "$work/tree" rev-parse HEAD)$|\tstart=$BASE_TAG|' scripts/mbox.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

mbox_series_apply_in_order() {
	local mboxes ranges mbox i=0 end dir am=$scratch/am want got before
	need_patches
	mapfile -t mboxes < <("$S/mbox.sh" "$scratch/mbox")
	ranges=$(series_ranges "$TREE")
	((${#mboxes[@]} == $(wc -l <<<"$ranges"))) ||
		{ echo "mbox.sh wrote ${#mboxes[@]} mbox(es) for $(wc -l <<<"$ranges") series"; return 1; }
	# shellcheck disable=SC2046 # one word per patch
	scratch_worktree "$am" $(patches)
	while read -r _ end dir; do
		mbox=${mboxes[$i]}
		before=${mboxes[*]:0:i}
		before=${before:+ and $(xargs -n1 basename <<<"$before" | xargs)}
		[[ ${mbox##*/} == "$(series_name "$dir").mbox" ]] ||
			{ echo "mbox $((i + 1)) is ${mbox##*/}, expected $(series_name "$dir").mbox"; return 1; }
		if ! git -C "$am" am -q --empty=drop "$mbox" </dev/null; then
			git -C "$am" am --abort || true
			echo "${mbox##*/} does not apply with git am on the base$before"
			return 1
		fi
		[[ $(git -C "$am" rev-parse 'HEAD^{tree}') == $(git -C "$TREE" rev-parse "$end^{tree}") ]] ||
			{ echo "${mbox##*/} on the base$before: the files differ from the tree's at the end of $(series_name "$dir")"; return 1; }
		if [[ $BASE_COMMIT_TRAILER == 1 ]]; then
			got=$(sed -n 's/^base-commit: //p' "$mbox")
			[[ $got == $(git -C "$TREE" rev-parse "$BASE_TAG^{commit}") ]] ||
				{ echo "${mbox##*/}: base-commit '$got', expected $BASE_TAG's"; return 1; }
			want=$(for p in $(series_prerequisites "$dir"); do
				one_series_patches "$p"
			done | while read -r p; do
				git -C "$TREE" patch-id --stable <"$p" | cut -c1-40
			done | sort)
			got=$(sed -n 's/^prerequisite-patch-id: //p' "$mbox" | sort)
			[[ $got == "$want" ]] ||
				{ echo "${mbox##*/}: prerequisite-patch-id lines '$(xargs <<<"$got")', expected the patches of what it needs ($(series_prerequisites "$dir" | xargs -r -n1 basename | xargs)): '$(xargs <<<"$want")'"; return 1; }
		fi
		echo "${mbox##*/}: $(grep -c '^From [0-9a-f]\{40\} Mon Sep 17 00:00:00 2001$' "$mbox") message(s), git am on the base$before: the tree's files at $(git -C "$TREE" log -1 --format='%h ("%s")' "$end"); $(grep -c '^prerequisite-patch-id: ' "$mbox" || true) prerequisite-patch-id line(s)"
		i=$((i + 1))
	done <<<"$ranges"
	git -C "$TREE" worktree remove --force "$am"
}

run_test mbox_series_apply_in_order "$@"
