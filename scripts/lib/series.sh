# The tree's commits and the series: commit lookups, the series' patches and their keys, patched
# commits, scratch worktrees, the cover letter (part of scripts/lib.sh).
# shellcheck shell=bash
# shellcheck disable=SC2153 # TREE, PATCHES and the other paths are base.sh's (lib.sh sources both)

# How git format-patch writes the series (series.sh, mbox.sh), from series.conf
SERIES_FORMAT_OPTS=(--subject-prefix="$SUBJECT_PREFIX")
[[ $BASE_COMMIT_TRAILER != 1 ]] || SERIES_FORMAT_OPTS+=(--base="$BASE_TAG")

# tree_commit COMMIT-ISH: the full id of a commit of the tree, or a one-line error.
tree_commit() {
	git -C "$TREE" rev-parse --verify -q "$1^{commit}" || die "no commit '$1' in $TREE (run: make tree)"
}

# checkout_commit WORKTREE COMMIT: check COMMIT out in one of the lab's build worktrees, fetching it
# first when the worktree belongs to another tree (TREE= pointing at a second tree).
checkout_commit() {
	local dir=$1 commit=$2
	if ! git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
		git -C "$dir" fetch -q "$TREE" "+refs/heads/*:refs/lab-fetched/*"
	fi
	git -C "$dir" checkout -q -f --detach "$commit"
}

# series_patches [DIR]: the series' patches in DIR (default $PATCHES), in order, one path a line:
# every NNNN-*.patch except the cover letter, 0000-cover-letter.patch. The one definition of
# "the series' patches"; every script that needs them asks here.
series_patches() {
	local dir=${1:-$PATCHES} f
	for f in "$dir"/[0-9][0-9][0-9][0-9]-*.patch; do
		[[ -e $f && ${f##*/} != 0000-* ]] && echo "$f"
	done
	return 0
}

# series_hash: what the tree's stamp records of patches/ (and the base version it applies to).
series_hash() {
	local patches
	mapfile -t patches < <(series_patches "$PATCHES")
	(echo "$BASE_PACKAGE_VERSION"; cat "${patches[@]}" /dev/null) | sha1sum | cut -c1-40
}

# scratch_worktree_of TREE DIR PATCH...: a detached worktree of TREE's base commit in DIR that checks
# out only the files the patches touch (git am needs nothing else), which takes a second instead of
# a full 75,000-file checkout. Remove it with: git -C TREE worktree remove --force DIR
scratch_worktree_of() {
	local tree=$1 dir=$2 files
	shift 2
	git -C "$tree" worktree add -q --no-checkout --detach "$dir" "$BASE_TAG"
	git -C "$dir" read-tree HEAD
	# The files the patches change that the base has (a patch may change a file an earlier one adds).
	files=$(sed -n 's|^--- a/||p' "$@" /dev/null | sort -u)
	# shellcheck disable=SC2086 # one word per file
	[[ -z $files ]] || files=$(git -C "$dir" ls-files -- $files)
	if [[ -n $files ]]; then
		# shellcheck disable=SC2086 # one word per file
		git -C "$dir" checkout HEAD -- $files
	fi
}

# series_cc PATCH...: the Cc lines of the cover letter, from get_maintainer.pl of the pristine base
# (MAINTAINERS is not part of the series), sorted, as get_maintainer's order varies.
series_cc() {
	(($#)) || return 0
	(cd "$BASE_DIR" && perl scripts/get_maintainer.pl --no-rolestats --no-git --no-git-fallback "$@") |
		sort -u | sed 's/^/Cc: /'
}

# patched_commit REV PATCH: REV with PATCH applied on top (git am), a commit of the tree kept as
# the tag lab-patched/<patch name>-<hash of REV and PATCH>; prints it. Lab variants and plants.
patched_commit() {
	local rev name tag wt files
	rev=$(tree_commit "$1")
	name=$(basename "$2" .patch)
	tag=lab-patched/$name-$({ echo "$rev"; cat "$2"; } | sha1sum | cut -c1-8)
	if ! git -C "$TREE" rev-parse -q --verify "$tag" >/dev/null; then
		wt=$(mktemp -d "$BASE_CACHE/patched.XXXXXX")
		# only the files the patch changes are checked out (git am needs nothing else)
		git -C "$TREE" worktree add -q --no-checkout --detach "$wt" "$rev"
		git -C "$wt" read-tree HEAD
		files=$(sed -n 's|^--- a/\([^	]*\).*|\1|p' "$2" | sort -u)
		# shellcheck disable=SC2086 # one word per file
		[[ -z $files ]] || files=$(git -C "$wt" ls-files -- $files)
		# shellcheck disable=SC2086 # one word per file
		[[ -z $files ]] || git -C "$wt" checkout HEAD -- $files
		if ! "$LAB_ROOT/scripts/apply-series.sh" "$wt" "$2" >&2; then
			git -C "$TREE" worktree remove --force "$wt"
			return 1
		fi
		git -C "$TREE" tag "$tag" "$(git -C "$wt" rev-parse HEAD)"
		git -C "$TREE" worktree remove --force "$wt"
	fi
	git -C "$TREE" rev-parse "$tag^{commit}"
}

# commit_key DIR COMMIT and patch_key PATCH: the same line for a commit and the patch it came from
# (or that format-patch makes of it): git patch-id of the change, and a hash of the message.
commit_key() {
	local pid
	pid=$(git -C "$1" show "$2" | git -C "$1" patch-id --stable | cut -c1-40)
	echo "${pid:-empty} $(git -C "$1" log -1 --format=%B "$2" | git stripspace | sha1sum | cut -c1-40)"
}
patch_key() {
	local tmp pid subject
	tmp=$(mktemp -d)
	pid=$(git -C "$TREE" patch-id --stable <"$1" | cut -c1-40)
	subject=$(git mailinfo "$tmp/msg" "$tmp/patch" <"$1" | sed -n 's/^Subject: //p')
	echo "${pid:-empty} $( (echo "$subject"; echo; cat "$tmp/msg") | git stripspace | sha1sum | cut -c1-40)"
	rm -rf "$tmp"
}

# remove_scratch DIR: DIR and every worktree made under it, in the tree of every base (also those
# of a test that failed half-way).
remove_scratch() {
	local dir=$1 tree wt
	for tree in "$TREE" "$LAB_CACHE"/*/linux; do
		[[ -d $tree/.git ]] || continue
		for wt in $(git -C "$tree" worktree list --porcelain 2>/dev/null | sed -n "s|^worktree \($dir/.*\)|\1|p"); do
			git -C "$tree" worktree remove --force "$wt" >/dev/null 2>&1 || true
		done
		git -C "$tree" worktree prune 2>/dev/null || true
	done
	rm -rf "$dir"
}

# fill_cover_letter FILE TEXT CC_FILE: in the first message of FILE (a cover letter from git
# format-patch --cover-letter, alone or at the head of a --stdout mbox), put the subject and text
# of TEXT (first line: subject) and the Cc lines of CC_FILE in place of git's placeholders, and
# fix its date (scripts/cover_letter.py).
fill_cover_letter() {
	python3 "$LAB_ROOT/scripts/cover_letter.py" "$@"
}
