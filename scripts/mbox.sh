#!/bin/bash
# make mbox: the series (cover letter first) as one threaded mbox, for `git am --empty=drop` or `b4 am -m`.
#   scripts/mbox.sh [OUTPUT]   (default: $BASE_CACHE/series.mbox)
# Made by git itself: patches/ is applied with git am to a scratch worktree of the tree's base
# commit, and git format-patch --stdout --thread --cover-letter writes the mbox from those commits;
# the cover letter gets the subject, text and Cc lines that scripts/series.sh gives it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
check_knobs
[[ $# -le 1 && ${1:-} != -* ]] || die "$1: no such argument (usage: scripts/mbox.sh [OUTPUT])"

out=${1:-$BASE_CACHE/series.mbox}
mapfile -t patches < <(series_patches "$PATCHES")
((${#patches[@]})) || die "$PATCHES has no patches: nothing to put in an mbox"
[[ -f $PATCHES/cover-letter.txt ]] || die "$PATCHES/cover-letter.txt not found (first line: the cover letter's subject)"
git -C "$TREE" rev-parse -q --verify "$BASE_TAG^{commit}" >/dev/null 2>&1 ||
	die "no base commit ($BASE_TAG) in $TREE (run: make tree)"

work=$(mktemp -d "${TMPDIR:-/tmp}/lab-mbox.XXXXXX")
cleanup() {
	git -C "$TREE" worktree remove --force "$work/tree" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
scratch_worktree_of "$TREE" "$work/tree" "${patches[@]}"
"$LAB_ROOT/scripts/apply-series.sh" "$work/tree" "${patches[@]}"
git -C "$work/tree" -c core.abbrev=12 format-patch --stdout --thread --cover-letter --zero-commit \
	"${SERIES_FORMAT_OPTS[@]}" "$BASE_TAG..HEAD" >"$work/series.mbox"
series_cc "${patches[@]}" >"$work/cc"
fill_cover_letter "$work/series.mbox" "$PATCHES/cover-letter.txt" "$work/cc"
# git folds a From: longer than 78 columns onto two lines, which b4 0.12 rejects ("Header values may
# not contain linefeed"): join the continuation lines of each message's header block (RFC 5322
# unfolding). Bodies, and the empty line that ends each header block, are kept byte for byte.
python3 - "$work/series.mbox" <<'PY'
import re, sys
path = sys.argv[1]
out, in_header = [], False
for line in open(path, newline="").read().split("\n"):
    if re.fullmatch(r"From [0-9a-f]{40} Mon Sep 17 00:00:00 2001", line):
        in_header = True
    elif in_header and line == "":
        in_header = False
    elif in_header and line[:1] in (" ", "\t") and out:
        out[-1] += " " + line.lstrip(" \t")
        continue
    out.append(line)
open(path, "w", newline="").write("\n".join(out))
PY
mkdir -p "$(dirname "$out")"
mv "$work/series.mbox" "$out"
note "wrote $((${#patches[@]} + 1)) messages to $out"
echo "$out"
