# The tree's commits and the series: commit lookups, the series' patches and their keys, patched
# commits, scratch worktrees, the cover letter (part of scripts/lib.sh).
# shellcheck shell=bash
# shellcheck disable=SC2153 # TREE, PATCHES and the other paths are base.sh's (lib.sh sources both)

# How git format-patch writes the series (series.sh, mbox.sh), from series.conf
SERIES_FORMAT_OPTS=(--subject-prefix="$SUBJECT_PREFIX")
[[ $BASE_COMMIT_TRAILER != 1 ]] || SERIES_FORMAT_OPTS+=(--base="$BASE_TAG")

# series_format_opts SERIES_DIR: SERIES_FORMAT_OPTS, one a line, with the series' version from
# series.conf's SERIES_VERSIONS ("SERIES: N; ...") in its subject prefix ("PATCH bpf-next v6"), as
# format-patch -v would write it, but with the file names left as they are. Call it as
# mapfile -t opts < <(...) after a check: a version that is not a number >= 2 dies.
series_format_opts() {
	local name entry v
	name=$(series_name "$1")
	entry=$(series_conf_value SERIES_VERSIONS "$name" 'SERIES: N') || exit 1
	v=${entry#=}
	v=${v//[[:space:]]/}
	[[ -z $entry ]] || { positive "$v" && ((v >= 2)); } ||
		die "SERIES_VERSIONS (config/$BASE/series.conf): '$name:${entry#=}' is not 'SERIES: N' with N >= 2"
	printf '%s\n' "--subject-prefix=$SUBJECT_PREFIX${v:+ v$v}" "${SERIES_FORMAT_OPTS[@]:1}"
}

# series_conf_value VAR NAME FORM: the entry of series NAME in series.conf's VAR, a list of
# "SERIES: VALUE" entries separated by ";": "=VALUE" when VAR names NAME (VALUE may be empty),
# nothing when it does not. An entry without ":", or NAME named twice, stops with one line
# (FORM: what an entry should look like). Call it as x=$(...) || exit 1.
series_conf_value() {
	local var=$1 name=$2 form=$3 entry entries key value=''
	IFS=';' read -ra entries <<<"${!var:-}"
	for entry in "${entries[@]}"; do
		[[ $entry =~ ^[[:space:]]*$ ]] && continue
		[[ $entry == *:* ]] || die "$var (config/$BASE/series.conf): '$entry' is not '$form'"
		key=${entry%%:*}
		[[ ${key//[[:space:]]/} == "$name" ]] || continue
		[[ -z $value ]] || die "$var (config/$BASE/series.conf): $name is named twice"
		value="=${entry#*:}"
	done
	echo "$value"
}

# tree_commit COMMIT-ISH: the full id of a commit of the tree, or a one-line error. With TREE=, a
# revision of the user's checkout, HEAD its SERIES_REV and lab-base its BASE_REV (own_tree_commit).
tree_commit() {
	if [[ -n $OWN_TREE ]]; then
		own_tree_commit "$1" || die "TREE=$OWN_TREE: no commit '$1'"
		return
	fi
	git -C "$TREE" rev-parse --verify -q "$1^{commit}" || die "no commit '$1' in $TREE (run: make tree)"
}

# checkout_commit WORKTREE COMMIT: check COMMIT out in one of the lab's build worktrees, fetching it
# first when the worktree belongs to another tree (LAB_TREE= pointing at a second tree).
checkout_commit() {
	local dir=$1 commit=$2
	if ! git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
		git -C "$dir" fetch -q "$TREE" "+refs/heads/*:refs/lab-fetched/*"
	fi
	git -C "$dir" checkout -q -f --detach "$commit"
}

# A base's patches/<base>/ holds one series (flat: NNNN-*.patch, 0000-cover-letter.patch and
# cover-letter.txt, as the LTS backports do) or several, each in a directory NN-name/ of that shape
# (7.3: the getpgid() fix and the freelist work, each posted on its own), applied in NN order, each
# on top of the ones before it.

# series_dirs [DIR]: the series of the base in DIR (default $PATCHES), in the order they apply, one
# directory a line: each DIR/NN-name/, or DIR itself when it has none (a flat base).
series_dirs() {
	local dir=${1:-$PATCHES} d found=0
	for d in "$dir"/[0-9][0-9]-*/; do
		[[ -d $d ]] || continue
		echo "${d%/}"
		found=1
	done
	((found)) || echo "$dir"
}

# series_name SERIES_DIR: how the lab names a series (mbox files, gates, the tree's branches): its
# directory's name, NN-name; "series" for the one series of a flat base.
series_name() {
	local name=${1##*/}
	[[ $name =~ ^[0-9][0-9]-. ]] || name=series
	echo "$name"
}

# one_series_patches SERIES_DIR: the patches of one series, in order: every NNNN-*.patch except the
# cover letter, 0000-cover-letter.patch.
one_series_patches() {
	local f
	for f in "$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		[[ -e $f && ${f##*/} != 0000-* ]] && echo "$f"
	done
	return 0
}

# series_patches [DIR]: every patch of the base in DIR (default $PATCHES), series after series, in
# the order git am applies them, one path a line. The shell's definition of "the series' patches":
# every script that needs them asks here; scripts/readout/patch_keys.py's series_patches is the
# Python one, held equal to it by unit/series_patches_match_across_languages.
series_patches() {
	local d
	while read -r d; do
		one_series_patches "$d"
	done < <(series_dirs "${1:-$PATCHES}")
}

# check_series_layout apply|write: one clear line when patches/<base>/ mixes the two layouts
# (patches beside series directories, which would be left out) or, for the scripts that apply them
# (apply; series.sh is about to write them: write), has a series directory without patches.
check_series_layout() {
	local d
	[[ $(series_dirs) == "$PATCHES" ]] && return 0
	[[ -z $(one_series_patches "$PATCHES") ]] ||
		die "$PATCHES_SHOWN/ has patches beside its series directories: move them into one (NN-name/)"
	[[ $1 != write ]] || return 0
	while read -r d; do
		[[ -n $(one_series_patches "$d") ]] || die "$PATCHES_SHOWN/${d##*/}/ has no patches"
	done < <(series_dirs)
}

# series_before SERIES_DIR: the series of its base that apply before SERIES_DIR, one directory a
# line, in order (none for a flat base's one series).
series_before() {
	local d
	[[ $(series_name "$1") != series ]] || return 0
	while read -r d; do
		[[ $d != "$1" ]] || break
		echo "$d"
	done < <(series_dirs "${1%/*}")
}

# series_prerequisites SERIES_DIR: the series that SERIES_DIR needs applied before it, besides the
# base, one directory a line, in the order they apply: those that series.conf's
# SERIES_PREREQUISITES names for it ("SERIES: NEEDED ...; ..."; "SERIES:" alone, none), or every
# series before it when it is not named there (and for a flat base's one series, none). Call it as
# list=$(series_prerequisites DIR): its die() (a name that is not a series before it) stops the
# caller.
series_prerequisites() {
	local dir=$1 name entry d n found named=0 needed=() earlier=()
	name=$(series_name "$dir")
	[[ $name != series ]] || return 0
	mapfile -t earlier < <(series_before "$dir")
	entry=$(series_conf_value SERIES_PREREQUISITES "$name" 'SERIES: NEEDED ...') || exit 1
	[[ -z $entry ]] || { named=1; read -ra needed <<<"${entry#=}"; }
	if ((!named)); then
		((${#earlier[@]} == 0)) || printf '%s\n' "${earlier[@]}"
		return 0
	fi
	for n in "${needed[@]}"; do
		found=0
		for d in "${earlier[@]}"; do
			[[ $(series_name "$d") != "$n" ]] || found=1
		done
		((found)) ||
			die "SERIES_PREREQUISITES (config/$BASE/series.conf): $name needs '$n', which is not a series before it"
	done
	for d in "${earlier[@]}"; do
		for n in "${needed[@]}"; do
			[[ $(series_name "$d") != "$n" ]] || echo "$d"
		done
	done
}

# series_hash: what the tree's stamp records of patches/ (and the base version it applies to): the
# patches and, for a base of several series, which series each is in.
series_hash() {
	local d patches
	{
		echo "$BASE_PACKAGE_VERSION"
		while read -r d; do
			[[ $d == "$PATCHES" ]] || echo "series $(series_name "$d")"
			mapfile -t patches < <(one_series_patches "$d")
			cat "${patches[@]}" /dev/null
		done < <(series_dirs "$PATCHES")
	} | sha1sum | cut -c1-40
}

# The tree marks where each series but the last ends with a branch, lab-series/NN-name (tree.sh
# makes them); the last series runs to HEAD. series.sh reads them back. They are branches so that
# `git rebase -i --update-refs lab-base` keeps them on the series' last commits (stacked branches).
SERIES_BRANCH_PREFIX=lab-series/

# mark_series_end TREE SERIES_DIR: the branch of SERIES_DIR at TREE's HEAD.
mark_series_end() {
	git -C "$1" branch -f "$SERIES_BRANCH_PREFIX$(series_name "$2")" HEAD >/dev/null
}

# drop_series_marks TREE: every lab-series/ branch of TREE (before the series are applied again).
drop_series_marks() {
	local ref
	for ref in $(git -C "$1" for-each-ref --format='%(refname)' "refs/heads/$SERIES_BRANCH_PREFIX"); do
		git -C "$1" update-ref -d "$ref"
	done
}

# apply_base_series TREE: git am every series of patches/<base>/ in order on TREE's HEAD (the base
# commit), marking the end of each series but the last (mark_series_end).
apply_base_series() {
	local tree=$1 d dirs patches
	mapfile -t dirs < <(series_dirs)
	drop_series_marks "$tree"
	for d in "${dirs[@]}"; do
		mapfile -t patches < <(one_series_patches "$d")
		"$LAB_ROOT/scripts/apply-series.sh" "$tree" "${patches[@]}" || return 1	# (errexit is off in step)
		[[ $d == "${dirs[-1]}" ]] || mark_series_end "$tree" "$d"
	done
}

# series_ranges TREE: the commits of each series of patches/<base>/ in TREE, one line a series:
# "FIRST_PARENT LAST SERIES_DIR" (git's FIRST_PARENT..LAST), from the base to the lab-series/
# branches and, for the last series, to HEAD. One clear line when a branch is missing or is not on
# the way from the base to HEAD (a rebase without --update-refs), or when a series has no commit.
# Call it as ranges=$(series_ranges TREE), where its die() stops the caller.
series_ranges() {
	local tree=$1 d dirs start end branch ref
	mapfile -t dirs < <(series_dirs)
	start=$(git -C "$tree" rev-parse "$BASE_TAG^{commit}")
	for d in "${dirs[@]}"; do
		branch=HEAD ref=HEAD
		if [[ $d != "${dirs[-1]}" ]]; then
			branch=$SERIES_BRANCH_PREFIX$(series_name "$d") ref=refs/heads/$branch
			git -C "$tree" rev-parse -q --verify "$ref^{commit}" >/dev/null ||
				die "$tree has no branch $branch, the end of $(series_name "$d") (make tree makes it; or: git -C $tree branch $branch <its last commit>)"
			git -C "$tree" merge-base --is-ancestor "$ref" HEAD ||
				die "$branch is not an ancestor of $tree's HEAD: the tree was rewritten without it (git rebase --update-refs keeps it; or: git -C $tree branch -f $branch <the last commit of $(series_name "$d")>)"
		fi
		end=$(git -C "$tree" rev-parse "$ref^{commit}")
		if [[ $start == "$end" ]] || ! git -C "$tree" merge-base --is-ancestor "$start" "$end"; then
			die "$(series_name "$d") has no commits in $tree (nothing between the end of the series before it and $branch)"
		fi
		echo "$start $end $d"
		start=$end
	done
}

# scratch_worktree_of TREE DIR PATCH...: a detached worktree of TREE's base commit in DIR that checks
# out only the files the patches touch (git am needs nothing else), which takes a second instead of
# a full 75,000-file checkout. Remove it with: git -C TREE worktree remove --force DIR
scratch_worktree_of() {
	local tree=$1 dir=$2
	shift 2
	git -C "$tree" worktree add -q --no-checkout --detach "$dir" "$BASE_TAG"
	checkout_touched "$dir" "$@"
}

# scratch_clone_of TREE DIR PATCH...: the same as a clone of TREE that shares its objects: its own
# branches (lab-series/, which a worktree would share with TREE), HEAD detached at the base commit.
# Remove it with rm -rf.
scratch_clone_of() {
	local tree=$1 dir=$2
	shift 2
	git clone -q --shared --no-checkout "$tree" "$dir"
	git -C "$dir" update-ref --no-deref HEAD "$(git -C "$dir" rev-parse "$BASE_TAG^{commit}")"
	checkout_touched "$dir" "$@"
}

# checkout_touched DIR PATCH...: in a checkout without files, the index of HEAD and the files of
# HEAD that the patches change.
checkout_touched() {
	local dir=$1 files
	shift
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

# patched_commit REV PATCH: REV with PATCH applied on top, a commit of the tree kept as the tag
# lab-patched/<patch name>-<hash of REV and PATCH>; prints it. Lab variants and plants. A patch in
# mail form is applied with git am; a plain diff (prose, then the diff: the harness's plants of
# lab/plants/) with git apply, committed as "PLANT: <patch name>". Its callers run it as a
# condition (`x=$(patched_commit ...) || die`), where set -e does not reach: each step that can
# fail returns.
patched_commit() {
	local rev name key tag wt files head
	rev=$(tree_commit "$1") || return
	name=$(basename "$2" .patch)
	key=$({ echo "$rev"; cat "$2"; } | sha1sum | cut -c1-8) || return
	tag=lab-patched/$name-$key
	if ! git -C "$TREE" rev-parse -q --verify "$tag" >/dev/null; then
		wt=$(mktemp -d "$BASE_CACHE/patched.XXXXXX") || return
		# only the files the patch changes are checked out (git am needs nothing else)
		git -C "$TREE" worktree add -q --no-checkout --detach "$wt" "$rev" || return
		git -C "$wt" read-tree HEAD || return
		files=$(sed -n 's|^--- a/\([^	]*\).*|\1|p' "$2" | sort -u) || return
		# shellcheck disable=SC2086 # one word per file
		[[ -z $files ]] || files=$(git -C "$wt" ls-files -- $files) || return
		# shellcheck disable=SC2086 # one word per file
		[[ -z $files ]] || git -C "$wt" checkout HEAD -- $files || return
		if grep -qm1 '^Subject: ' "$2"; then
			"$LAB_ROOT/scripts/apply-series.sh" "$wt" "$2" >&2 || {
				git -C "$TREE" worktree remove --force "$wt"
				return 1
			}
		elif ! git -C "$wt" apply --index "$(realpath "$2")" >&2 ||
			! git -C "$wt" commit -q -m "PLANT: $name" -m "A plain diff of the lab: $(basename "$2")." >&2; then
			note "$(basename "$2") does not apply on ${rev:0:12}"
			git -C "$TREE" worktree remove --force "$wt"
			return 1
		fi
		head=$(git -C "$wt" rev-parse HEAD) || return
		git -C "$TREE" tag "$tag" "$head" || return
		git -C "$TREE" worktree remove --force "$wt"
	fi
	git -C "$TREE" rev-parse "$tag^{commit}"
}

# patch_keys PATCH... and commit_keys DIR COMMIT...: the key of each patch, and of each commit of
# the git tree DIR, one a line in order; a commit and the patch it came from (or that format-patch
# makes of it) have the same key: git patch-id of the change, and a hash of the message. Keys live
# in scripts/readout/patch_keys.py (readout.py keys); call these as x=$(...), which set -e checks.
patch_keys() {
	(($# == 0)) || "$LAB_ROOT/scripts/readout.py" keys -C "$TREE" "$@"
}
commit_keys() {
	(($# < 2)) || "$LAB_ROOT/scripts/readout.py" keys -C "$1" --commits "${@:2}"
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

# fill_cover_letter FILE TEXT CC_FILE [PATCH...]: in the first message of FILE (a cover letter from
# git format-patch --cover-letter, alone or at the head of a --stdout mbox), put the subject and
# text of TEXT (first line: subject) and the Cc lines of CC_FILE in place of git's placeholders,
# and date it as the latest of its patches (FILE's other messages, or the PATCH files)
# (scripts/readout.py cover-letter).
fill_cover_letter() {
	python3 "$LAB_ROOT/scripts/readout.py" cover-letter "$@"
}
