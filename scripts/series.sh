#!/bin/bash
# Regenerate patches/ from the tree's commits on top of the base, with git format-patch.
# The cover letter's subject and text live in patches/cover-letter.txt (first line: subject).
#   scripts/series.sh [OUTDIR]   (default: patches/ of this repo)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=${SERIES_TREE:-$TREE}
outdir=${1:-$PATCHES}
[[ -d $tree/.git || -f $tree/.git ]] || die "no kernel tree at $tree (run: make tree)"
git -C "$tree" rev-parse -q --verify "$BASE_TAG" >/dev/null || die "$tree has no $BASE_TAG tag"
nr=$(git -C "$tree" rev-list --count "$BASE_TAG..HEAD")
mkdir -p "$outdir"
mapfile -t old < <(series_patches "$outdir")
rm -f "${old[@]}" "$outdir/0000-cover-letter.patch"
if ((nr == 0)); then
	note "no commits on top of the base: patches/ is empty"
	exit 0
fi

# --zero-commit and a fixed cover-letter date keep the output independent of when and where the
# tree was materialized, so `make tree && make series` round-trips exactly.
opts=(--zero-commit --no-numbered-files --quiet -o "$outdir")
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
