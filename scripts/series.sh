#!/bin/bash
# Regenerate patches/ from the tree's commits on top of the base, with git format-patch.
# The cover letter's subject and text live in patches/cover-letter.txt (first line: subject).
#   scripts/series.sh [OUTDIR]   (default: patches/ of this repo)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=${SERIES_TREE:-$TREE}
outdir=${1:-$LAB_ROOT/patches}
[[ -d $tree/.git || -f $tree/.git ]] || die "no kernel tree at $tree (run: make tree)"
git -C "$tree" rev-parse -q --verify "$BASE_TAG" >/dev/null || die "$tree has no $BASE_TAG tag"
# Put the subject and text of cover-letter.txt in place of git's placeholders, and fix the date.
fill_cover_letter() {
	local cover=$1 text=$2 cc=$3
	python3 - "$cover" "$text" "$cc" <<'PY'
import sys
cover, text = sys.argv[1], open(sys.argv[2]).read().rstrip("\n")
cc = open(sys.argv[3]).read().rstrip("\n")
subject, _, blurb = text.partition("\n")
blurb = blurb.strip("\n") + ("\n\n" + cc if cc else "")
s = open(cover).read()
s = s.replace("*** SUBJECT HERE ***", subject.strip(), 1)
s = s.replace("*** BLURB HERE ***", blurb, 1)
lines = [l if not l.startswith("Date: ") else "Date: Thu, 1 Jan 2026 00:00:00 +0000" for l in s.split("\n")]
open(cover, "w").write("\n".join(lines))
PY
}

nr=$(git -C "$tree" rev-list --count "$BASE_TAG..HEAD")
mkdir -p "$outdir"
rm -f "$outdir"/[0-9][0-9][0-9][0-9]-*.patch
if ((nr == 0)); then
	note "no commits on top of the base: patches/ is empty"
	exit 0
fi

# --zero-commit and a fixed cover-letter date keep the output independent of when and where the
# tree was materialized, so `make tree && make series` round-trips exactly.
opts=(--zero-commit --no-numbered-files --quiet -o "$outdir")
if [[ -f $LAB_ROOT/patches/cover-letter.txt ]]; then
	opts+=(--cover-letter)
fi
git -C "$tree" -c core.abbrev=12 format-patch "${opts[@]}" "$BASE_TAG..HEAD" >/dev/null
cover=$outdir/0000-cover-letter.patch
if [[ -f $cover ]]; then
	# The Cc list of the whole series, from the tree's MAINTAINERS.
	# (from the pristine base: MAINTAINERS is not part of the series; sorted, as its order varies)
	(cd "$BASE_DIR" && perl scripts/get_maintainer.pl --no-rolestats --no-git --no-git-fallback \
		"$outdir"/[0-9][0-9][0-9][1-9]-*.patch) | sort -u | sed 's/^/Cc: /' >"$outdir/.cc"
	fill_cover_letter "$cover" "$LAB_ROOT/patches/cover-letter.txt" "$outdir/.cc"
	rm -f "$outdir/.cc"
fi
if [[ $outdir == "$LAB_ROOT/patches" ]]; then
	patches_hash=$( (echo "$BASE_PACKAGE_VERSION"; cat "$outdir"/[0-9][0-9][0-9][1-9]-*.patch) | sha1sum | cut -c1-40)
	echo "$patches_hash $(git -C "$tree" rev-parse HEAD)" >"$tree/.git/lab-stamp"
fi
note "wrote $nr patch(es) to $outdir"
ls "$outdir"/*.patch >&2
