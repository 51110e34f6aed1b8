#!/bin/bash
# Materialize the kernel git tree: one commit for the pristine base, then patches/<base>/ with git am:
# its one series (NNNN-*.patch), or each of its series (NN-name/NNNN-*.patch) in order, the end of
# each but the last marked by a branch, lab-series/NN-name (scripts/lib/patches.sh).
# The tree is reused while patches/ is unchanged, and rebuilt from the base commit when it changed
# (or when the last git am failed): a stamp, the hash of patches/<base>/ and the HEAD it gave
# ("applying" while git am runs), decides; a patch that does not apply is named with its file.
# The base commit is "Linux 6.1.192 (Debian linux-source-6.1 6.1.192-3)", with fixed dates, tagged
# lab-base. tree.sh and series.sh hold a lock on the tree, base.sh one on the base. It never loses
# work silently: when the rebuild would drop uncommitted (or untracked) files or commits that are
# not in patches/ (same patch-id and message), it refuses, names them, and says the command that
# keeps them (git stash push --all, make series).
#   FORCE=1  rebuild anyway (the uncommitted changes and extra commits are lost).
# Your own tree: TREE=/path/to/linux (a kernel git checkout) with SERIES_REV=<revision> (default
# HEAD) and BASE_REV=<revision> (default: the merge-base of SERIES_REV and its upstream) makes
# make kernel, bench, compare, regress, check-debug, vm and vm-bench measure BASE_REV as base and
# SERIES_REV as series (REV, HEAD: SERIES_REV). The lab never writes there: it only reads it,
# into a clone of its own (git clone --shared: its objects read in place) in
# $LAB_CACHE/own/<name>-<hash>/, where its worktrees and object directories are too (O=). The
# config is config/<base>/ of the tree's version: of the bases of its major version the newest not
# newer than it, else the oldest (7.x: 7.3, 6.12.y and later 6.x: 6.12, 6.1.y to 6.11: 6.1); or
# BASE=<base>. Refused, in one line: not a git tree, a revision that does not exist, a kernel older
# than the oldest base (6.1), uncommitted changes (TREE_DIRTY=1: build the commits anyway),
# RECORD=1 (records/ are the lab's own series': the results stay in the cache). make compare's
# README.md names the tree and its revisions as commits in its command (TREE=... BASE_REV=...
# SERIES_REV=...): run again, it measures the same commits.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs
(($# == 0)) || die "$1: no arguments taken (usage: [FORCE=1] scripts/tree.sh)"
if [[ -n $OWN_TREE ]]; then
	lock_tree
	own_tree_sync
	exit 0
fi

check_series_layout apply
lock_tree
"$LAB_ROOT/scripts/base.sh"

stamp_file=$TREE/.git/lab-stamp	# "<hash of patches/> <HEAD after applying them, or 'applying'>"
mapfile -t patches < <(series_patches "$PATCHES")
patches_hash=$(series_hash)

# No automatic git gc in the lab's tree: git commit and git am start it in the background, where it
# holds this script's lock (an inherited descriptor) for the minutes a repack of a kernel takes,
# and every other step waits for it. The tree is a cache; pack it by hand if ever needed.
no_auto_gc() { git -C "$1" config gc.auto 0; }

make_base_commit() {
	local kver new=$TREE.new
	kver=$(lab_make -s -C "$BASE_DIR" kernelversion)
	rm -rf "$new"
	mkdir -p "$new"
	git -C "$new" init -q -b main
	no_auto_gc "$new"
	cp -a "$BASE_DIR/." "$new/"
	rm -f "$new/.extracted"
	git -C "$new" add -A -f .
	# Fixed dates: the base commit id then depends only on the content and the identity.
	GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z' \
		git -C "$new" commit -q -m "Linux $kver (Debian $BASE_PACKAGE $(cat "$BASE_DIR/.extracted"))"
	git -C "$new" tag -f "$BASE_TAG" >/dev/null
	echo "none $(git -C "$new" rev-parse HEAD)" >"$new/.git/lab-stamp"
	rmdir "$TREE" 2>/dev/null || true
	mv "$new" "$TREE"
}

# What a rebuild would lose, as the lines of a refusal; nothing when nothing would be lost.
would_lose() {
	local changes kept extra c since commits keys i=0
	if [[ -d $TREE/.git/rebase-apply ]]; then
		echo "a git am or rebase is in progress; finish it (git -C $TREE am --continue) or drop it (git -C $TREE am --abort)"
		return
	fi
	changes=$(git -C "$TREE" status --porcelain --ignored --untracked-files=all | head -n 10)
	if [[ -n $changes ]]; then
		echo "uncommitted changes that the rebuild would delete:"
		sed 's/^/    /' <<<"$changes"
		echo "keep them with: git -C $TREE stash push --all   (then make tree; git -C $TREE stash pop)"
		return
	fi
	# The developer's commits: those tree.sh did not make (not behind the stamp's HEAD) and that
	# patches/ does not have either.
	since=("$BASE_TAG..HEAD")
	git -C "$TREE" rev-parse -q --verify "$old_head^{commit}" >/dev/null && since+=("^$old_head")
	kept=$(patch_keys "${patches[@]}")
	commits=$(git -C "$TREE" rev-list --reverse "${since[@]}")	# (a for list's $(...) is never checked)
	# shellcheck disable=SC2086 # one word per commit
	keys=$(commit_keys "$TREE" $commits)
	mapfile -t keys <<<"$keys"
	for c in $commits; do
		grep -qxF "${keys[i++]}" <<<"$kept" ||
			extra+="    $(git -C "$TREE" log -1 --format='%h %s' "$c")"$'\n'
	done
	if [[ -n ${extra:-} ]]; then
		echo "commits that are not in $PATCHES_SHOWN/ (the rebuild would drop them):"
		printf '%s' "$extra"
		echo "keep them with: make series   (writes the tree's commits to $PATCHES_SHOWN/; or set them aside: git -C $TREE branch saved HEAD)"
	fi
}

if [[ ! -f $stamp_file ]]; then
	# Only a tree this script made is rebuilt: anything else at $TREE is left alone.
	if [[ -e $TREE ]] && [[ -n $(ls -A "$TREE") ]]; then
		die "$TREE exists but was not made by tree.sh (no .git/lab-stamp): move it away, or set TREE to another path"
	fi
	step "creating the base commit in $TREE" make_base_commit
else
	read -r old_hash old_head <"$stamp_file"
	no_auto_gc "$TREE"
	if [[ $old_hash == "$patches_hash" && $old_head != applying ]]; then
		note "tree $TREE is up to date with $PATCHES_SHOWN/"
		exit 0
	fi
	if [[ ${FORCE:-0} != 1 ]]; then
		lost=$(would_lose)
		if [[ -n $lost ]]; then
			echo "error: $PATCHES_SHOWN/ changed and make tree would rebuild $TREE from the base, but:" >&2
			echo "$lost" >&2
			echo "(FORCE=1 make tree rebuilds anyway and loses them)" >&2
			exit 1
		fi
	fi
	git -C "$TREE" am --abort >/dev/null 2>&1 || true
	git -C "$TREE" checkout -q -f -B main "$BASE_TAG"
	git -C "$TREE" clean -q -fdx
fi

# While git am runs, the stamp says so: a failed am leaves commits that are all in patches/, and
# the next run rebuilds without asking.
echo "$patches_hash applying" >"$stamp_file"
step "applying ${#patches[@]} patch(es) of $(series_dirs | wc -l) series with git am" apply_base_series "$TREE"
echo "$patches_hash $(git -C "$TREE" rev-parse HEAD)" >"$stamp_file"
git -C "$TREE" log --oneline -n $((${#patches[@]} + 1)) >&2
