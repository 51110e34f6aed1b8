#!/bin/bash
# Regenerate patches/ from the tree's commits on top of the base, with git format-patch.
# The cover letter's subject and text live in patches/cover-letter.txt (first line: subject).
#   scripts/series.sh [OUTDIR]   (default: patches/ of this repo)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
check_knobs
[[ $# -le 1 && ${1:-} != -* ]] || die "$1: no such argument (usage: scripts/series.sh [OUTDIR])"

tree=${SERIES_TREE:-$TREE}
outdir=${1:-$PATCHES}
[[ -d $tree/.git || -f $tree/.git ]] || die "no kernel tree at $tree (run: make tree)"
git -C "$tree" rev-parse -q --verify "$BASE_TAG" >/dev/null || die "$tree has no $BASE_TAG tag"
[[ $tree != "$TREE" ]] || lock_tree
# Writing patches/ from $TREE deletes the patches the tree does not have. That is the developer's
# intent when the tree was made from these very patches (a commit dropped on purpose), never when
# patches/ changed since, or when their git am failed: then refuse and name them.
if [[ $outdir == "$PATCHES" && $tree == "$TREE" && ${FORCE:-0} != 1 ]]; then
	stamp_hash='' stamp_head=''
	[[ ! -f $tree/.git/lab-stamp ]] || read -r stamp_hash stamp_head <"$tree/.git/lab-stamp"
	if [[ $stamp_hash != "$(series_hash)" || $stamp_head == applying ]]; then
		kept=$(for c in $(git -C "$tree" rev-list "$BASE_TAG..HEAD"); do commit_key "$tree" "$c"; done)
		missing=()
		while read -r p; do
			grep -qxF "$(patch_key "$p")" <<<"$kept" || missing+=("$(basename "$p")")
		done < <(series_patches)
		((${#missing[@]} == 0)) ||
			die "make series would delete patches that are not in the tree: ${missing[*]} ($([[ $stamp_head == applying ]] && echo 'their git am failed' || echo "$PATCHES_SHOWN/ changed since make tree")); fix them and run make tree, or FORCE=1 make series to drop them"
	fi
fi

nr=$(git -C "$tree" rev-list --count "$BASE_TAG..HEAD")
mkdir -p "$outdir"
mapfile -t old < <(series_patches "$outdir")
rm -f "${old[@]}" "$outdir/0000-cover-letter.patch"
if ((nr == 0)); then
	note "no commits on top of the base: $PATCHES_SHOWN/ is empty"
	exit 0
fi

# --zero-commit and a fixed cover-letter date keep the output independent of when and where the
# tree was materialized, so `make tree && make series` round-trips exactly.
opts=(--zero-commit --no-numbered-files --quiet -o "$outdir" "${SERIES_FORMAT_OPTS[@]}")
if [[ -f $PATCHES/cover-letter.txt ]]; then
	opts+=(--cover-letter)
fi
git -C "$tree" -c core.abbrev=12 format-patch "${opts[@]}" "$BASE_TAG..HEAD" >/dev/null
cover=$outdir/0000-cover-letter.patch
if [[ -f $cover ]]; then
	mapfile -t new < <(series_patches "$outdir")
	series_cc "${new[@]}" >"$outdir/.cc"
	fill_cover_letter "$cover" "$PATCHES/cover-letter.txt" "$outdir/.cc"
	rm -f "$outdir/.cc"
fi
if [[ $outdir == "$PATCHES" && $tree == "$TREE" ]]; then
	patches_hash=$(series_hash)
	echo "$patches_hash $(git -C "$tree" rev-parse HEAD)" >"$tree/.git/lab-stamp"
fi
note "wrote $nr patch(es) to $outdir"
ls "$outdir"/*.patch >&2
