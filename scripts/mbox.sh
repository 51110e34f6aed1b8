#!/bin/bash
# make mbox: each series of the base as one threaded mbox, for `git am --empty=drop` or `b4 am -m`:
# DIR/<series>.mbox, one per series of patches/<base>/ in the order they apply (NN-name.mbox; a
# flat base's one series: series.mbox). Prints their paths, in that order.
#   scripts/mbox.sh [DIR]   (default: $BASE_CACHE/mbox)
# Made by git itself: each series is applied with git am to a scratch worktree of the tree's base
# commit after the series it needs (series.conf's SERIES_PREREQUISITES; without it, every series
# before it), and git format-patch --stdout --thread writes its mbox from its own commits (with
# series.conf's base-commit: trailer, git names the patches it needs as prerequisite-patch-id:
# lines). A series with a cover-letter.txt gets a cover letter
# with the subject, text and Cc lines that scripts/series.sh gives it; a series without one (a
# single patch, as bpf-next posts it) gets the Cc lines of get_maintainer.pl as its Cc: header.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
check_knobs
[[ $# -le 1 && ${1:-} != -* ]] || die "$1: no such argument (usage: scripts/mbox.sh [DIR])"

outdir=${1:-$BASE_CACHE/mbox}
[[ $outdir != *.mbox ]] || die "$outdir: expected a directory (one mbox per series is written in it)"
check_series_layout apply
mapfile -t dirs < <(series_dirs "$PATCHES")
mapfile -t all < <(series_patches "$PATCHES")
((${#all[@]})) || die "$PATCHES_SHOWN has no patches: nothing to put in an mbox"
for d in "${dirs[@]}"; do
	mapfile -t patches < <(one_series_patches "$d")
	[[ -f $d/cover-letter.txt || ${#patches[@]} == 1 ]] ||
		die "$d/cover-letter.txt not found: a series of ${#patches[@]} patches needs one (first line: the cover letter's subject)"
done
git -C "$TREE" rev-parse -q --verify "$BASE_TAG^{commit}" >/dev/null 2>&1 ||
	die "no base commit ($BASE_TAG) in $TREE (run: make tree)"

work=$(mktemp -d "${TMPDIR:-/tmp}/lab-mbox.XXXXXX")
cleanup() {
	git -C "$TREE" worktree remove --force "$work/tree" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

# git folds a From: longer than 78 columns onto two lines, which b4 0.12 rejects ("Header values may
# not contain linefeed"): join the continuation lines of each message's header block (RFC 5322
# unfolding). Bodies, and the empty line that ends each header block, are kept byte for byte.
unfold_headers() {
	python3 - "$1" <<'PY'
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
}

mkdir -p "$outdir"
for d in "${dirs[@]}"; do
	name=$(series_name "$d")
	mapfile -t patches < <(one_series_patches "$d")
	# the series on the base and the series it needs (series_prerequisites), nothing else
	prerequisites=$(series_prerequisites "$d")
	before=()
	for p in $prerequisites; do
		mapfile -t -O "${#before[@]}" before < <(one_series_patches "$p")
	done
	scratch_worktree_of "$TREE" "$work/tree" "${before[@]}" "${patches[@]}"
	((${#before[@]} == 0)) || "$LAB_ROOT/scripts/apply-series.sh" "$work/tree" "${before[@]}"
	start=$(git -C "$work/tree" rev-parse HEAD)
	"$LAB_ROOT/scripts/apply-series.sh" "$work/tree" "${patches[@]}"
	series_cc "${patches[@]}" >"$work/cc"
	fmt=$(series_format_opts "$d")
	mapfile -t opts <<<"$fmt"
	opts+=(--stdout --thread --zero-commit)
	if [[ -f $d/cover-letter.txt ]]; then
		opts+=(--cover-letter)
	else
		mapfile -t cc < <(sed 's/^Cc: //' "$work/cc")
		opts+=("${cc[@]/#/--cc=}")
	fi
	git -C "$work/tree" -c core.abbrev=12 format-patch "${opts[@]}" "$start..HEAD" >"$work/$name.mbox"
	[[ ! -f $d/cover-letter.txt ]] || fill_cover_letter "$work/$name.mbox" "$d/cover-letter.txt" "$work/cc"
	unfold_headers "$work/$name.mbox"
	git -C "$TREE" worktree remove --force "$work/tree"
	mv "$work/$name.mbox" "$outdir/$name.mbox"
	note "wrote $(grep -c '^From [0-9a-f]\{40\} Mon Sep 17 00:00:00 2001$' "$outdir/$name.mbox") message(s) of $name to $outdir/$name.mbox"
	echo "$outdir/$name.mbox"
done
