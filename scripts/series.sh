#!/bin/bash
# Regenerate patches/ from the tree's commits on top of the base, with git format-patch.
# A base of several series (patches/<base>/NN-name/) gets each series written into its directory:
# the commits up to the tree's branch lab-series/NN-name (tree.sh makes them; the last series runs
# to HEAD), each series formatted on top of the ones before it (with series.conf's base-commit:
# trailer, git adds a prerequisite-patch-id: line per patch of the earlier series); a series that
# needs fewer of them (series.conf's SERIES_PREREQUISITES) is formatted again from a scratch
# worktree of the base with only those applied, or refused in one line if it does not apply there.
# A series' cover letter has its subject and text in its cover-letter.txt (first line: subject); a
# series without one (a single patch) gets no cover letter.
#   scripts/series.sh [OUTDIR]   (default: patches/<base>/ of this repo; the same layout)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
check_knobs
[[ $# -le 1 && ${1:-} != -* ]] || die "$1: no such argument (usage: scripts/series.sh [OUTDIR])"

[[ -z $OWN_TREE ]] ||
	die "TREE=$OWN_TREE: make series writes $PATCHES_SHOWN/ from the lab's own tree, not from yours (there: git format-patch)"
tree=${SERIES_TREE:-$TREE}
outdir=${1:-$PATCHES}
[[ -d $tree/.git || -f $tree/.git ]] || die "no kernel tree at $tree (run: make tree)"
git -C "$tree" rev-parse -q --verify "$BASE_TAG" >/dev/null || die "$tree has no $BASE_TAG tag"
check_series_layout write
[[ $tree != "$TREE" ]] || lock_tree
# Writing patches/ from $TREE deletes the patches the tree does not have. That is the developer's
# intent when the tree was made from these very patches (a commit dropped on purpose), never when
# patches/ changed since, or when their git am failed: then refuse and name them.
if [[ $outdir == "$PATCHES" && $tree == "$TREE" && ${FORCE:-0} != 1 ]]; then
	stamp_hash='' stamp_head=''
	[[ ! -f $tree/.git/lab-stamp ]] || read -r stamp_hash stamp_head <"$tree/.git/lab-stamp"
	if [[ $stamp_hash != "$(series_hash)" || $stamp_head == applying ]]; then
		commits=$(git -C "$tree" rev-list "$BASE_TAG..HEAD")
		# shellcheck disable=SC2086 # one word per commit
		kept=$(commit_keys "$tree" $commits)
		mapfile -t patches < <(series_patches)
		keys=$(patch_keys "${patches[@]}")
		mapfile -t keys <<<"$keys"
		missing=() i=0
		for p in "${patches[@]}"; do
			grep -qxF "${keys[i++]}" <<<"$kept" || missing+=("${p#"$PATCHES"/}")
		done
		((${#missing[@]} == 0)) ||
			die "make series would delete patches that are not in the tree: ${missing[*]} ($([[ $stamp_head == applying ]] && echo 'their git am failed' || echo "$PATCHES_SHOWN/ changed since make tree")); fix them and run make tree, or FORCE=1 make series to drop them"
	fi
fi

nr=$(git -C "$tree" rev-list --count "$BASE_TAG..HEAD")
if ((nr == 0)); then
	mkdir -p "$outdir"
	mapfile -t old < <(series_patches "$outdir")
	rm -f "${old[@]}"
	while read -r d; do
		rm -f "$d/0000-cover-letter.patch"
	done < <(series_dirs "$outdir")
	note "no commits on top of the base: $PATCHES_SHOWN/ is empty"
	exit 0
fi
# Every series' commits, before anything is deleted (series_ranges names what is missing).
ranges=$(series_ranges "$tree")

# format_series GIT_DIR START END DIR OUT: the commits START..END of GIT_DIR as the patches of
# series DIR in OUT (its cover letter when DIR has a cover-letter.txt), in place of OUT's.
# --zero-commit and a fixed cover-letter date keep the output independent of when and where the
# tree was materialized, so `make tree && make series` round-trips exactly.
format_series() {
	local git_dir=$1 start=$2 end=$3 dir=$4 out=$5 opts fmt old new cover
	fmt=$(series_format_opts "$dir")
	mkdir -p "$out"
	mapfile -t old < <(one_series_patches "$out")
	rm -f "${old[@]}" "$out/0000-cover-letter.patch"
	mapfile -t opts <<<"$fmt"
	opts+=(--zero-commit --no-numbered-files --quiet -o "$out")
	[[ ! -f $dir/cover-letter.txt ]] || opts+=(--cover-letter)
	git -C "$git_dir" -c core.abbrev=12 format-patch "${opts[@]}" "$start..$end" >/dev/null
	cover=$out/0000-cover-letter.patch
	if [[ -f $cover ]]; then
		mapfile -t new < <(one_series_patches "$out")
		series_cc "${new[@]}" >"$out/.cc"
		fill_cover_letter "$cover" "$dir/cover-letter.txt" "$out/.cc" "${new[@]}"
		rm -f "$out/.cc"
	fi
}

# reformat_on_prerequisites DIR OUT PREREQUISITE_DIR...: series DIR, written to OUT on top of every
# series before it, written again from a scratch worktree of the base with only the patches of its
# prerequisites (as written to $outdir) applied before it, so that its index lines and
# prerequisite-patch-id: lines are those of what it needs, and nothing else.
reformat_on_prerequisites() {
	local dir=$1 out=$2 wt p before=() own start
	shift 2
	for p in "$@"; do
		mapfile -t -O "${#before[@]}" before < <(one_series_patches "$outdir${p#"$PATCHES"}")
	done
	mapfile -t own < <(one_series_patches "$out")
	wt=$(mktemp -d "$BASE_CACHE/series.XXXXXX")
	scratch_worktree_of "$tree" "$wt/tree" "${before[@]}" "${own[@]}"
	((${#before[@]} == 0)) || "$LAB_ROOT/scripts/apply-series.sh" "$wt/tree" "${before[@]}"
	start=$(git -C "$wt/tree" rev-parse HEAD)
	if ! "$LAB_ROOT/scripts/apply-series.sh" "$wt/tree" "${own[@]}"; then
		git -C "$tree" worktree remove --force "$wt/tree"
		rm -rf "$wt"
		die "$(series_name "$dir") does not apply on the base with only the series it needs ($(names_of "$@")): name what it needs in SERIES_PREREQUISITES, config/$BASE/series.conf"
	fi
	format_series "$wt/tree" "$start" HEAD "$dir" "$out"
	git -C "$tree" worktree remove --force "$wt/tree"
	rm -rf "$wt"
}

# names_of DIR...: the series' names, "NN-a NN-b", or "none".
names_of() {
	local d names=()
	for d in "$@"; do
		names+=("$(series_name "$d")")
	done
	echo "${names[*]:-none}"
}

# Each series on top of the ones before it, as the tree has them; then, a series that needs fewer
# (SERIES_PREREQUISITES), again on the base and those alone.
mapfile -t range_lines <<<"$ranges"
for line in "${range_lines[@]}"; do
	read -r start end dir <<<"$line"
	out=$outdir${dir#"$PATCHES"}
	format_series "$tree" "$start" "$end" "$dir" "$out"
	note "wrote $(git -C "$tree" rev-list --count "$start..$end") patch(es) of $(series_name "$dir") to $out"
done
for line in "${range_lines[@]}"; do
	read -r start end dir <<<"$line"
	prerequisites=$(series_prerequisites "$dir")
	before_it=$(series_before "$dir")
	[[ $prerequisites != "$before_it" ]] || continue
	mapfile -t needed <<<"$prerequisites"
	[[ -n $prerequisites ]] || needed=()
	reformat_on_prerequisites "$dir" "$outdir${dir#"$PATCHES"}" "${needed[@]}"
	note "wrote $(series_name "$dir") again on the base and what it needs: $(names_of "${needed[@]}")"
done
if [[ $outdir == "$PATCHES" && $tree == "$TREE" ]]; then
	patches_hash=$(series_hash)
	echo "$patches_hash $(git -C "$tree" rev-parse HEAD)" >"$tree/.git/lab-stamp"
fi
note "wrote $nr patch(es) to $outdir"
series_patches "$outdir" >&2
