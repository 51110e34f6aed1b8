# TREE=/path/to/linux: the lab on a kernel checkout of the user's own (part of scripts/lib.sh,
# sourced by config.sh before BASE is read). The usage is scripts/tree.sh's --help.
# The checkout is only read (git rev-parse, show, status without its optional index refresh); the
# lab works in a clone of its own, $LAB_CACHE/own/<name>-<hash>/linux, made with
# `git clone --shared`: it reads the checkout's objects in place (no copy of a kernel's history) and
# keeps its refs, tags and worktrees to itself. Its lab-base tag is BASE_REV, its HEAD SERIES_REV,
# so every script finds base and series as in the lab's own tree.
# The first script resolves TREE, BASE_REV, SERIES_REV and BASE once and exports them as
# LAB_OWN_TREE, LAB_OWN_BASE, LAB_OWN_SERIES; the scripts it runs take them as they are.
# shellcheck shell=bash

# own_tree_version DIR REV: "VERSION PATCHLEVEL" of the top Makefile of REV in DIR; nothing when it
# has none (not a Linux tree).
own_tree_version() {
	{ git -C "$1" show "$2:Makefile" 2>/dev/null || true; } |
		awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
			v != "" && p != "" { print v + 0, p + 0; exit }'
}

# own_tree_base VERSION PATCHLEVEL: the base whose config (config/<base>/) a tree of that version
# takes: of the bases of its major version, the newest not newer than it, else the oldest (7.0 to
# 7.2: 7.3); a major version without a base takes the newest base. Nothing for a tree older than
# the oldest base.
own_tree_base() {
	lab_bases | awk -v v="$1" -v p="$2" -F. '
		{ n++; b[n] = $0; bv[n] = $1; bp[n] = $2 }
		END {
			if (v < bv[1] || (v == bv[1] && p < bp[1])) exit
			for (i = 1; i <= n; i++)
				if (bv[i] == v && bp[i] <= p) best = b[i]
			if (best == "")
				for (i = n; i >= 1; i--)
					if (bv[i] == v) best = b[i]
			print best != "" ? best : b[n]
		}'
}

# own_tree_resolve: check TREE, resolve its revisions, pick the base; one line and exit 1 for a tree
# the lab cannot use
own_tree_resolve() {
	local top='' series base ver min what rev
	[[ ! -d $TREE ]] || top=$(git -C "$TREE" rev-parse --show-toplevel 2>/dev/null) || true
	[[ -n $top ]] || die "TREE=$TREE: not a git tree (expected a kernel checkout: git clone, then TREE=<its directory>)"
	[[ ${RECORD:-0} != 1 ]] ||
		die "RECORD=1: records/ hold what the lab's own series measured; with TREE= the results stay in the cache's results/"
	series=$(git -C "$top" rev-parse --verify -q "${SERIES_REV:-HEAD}^{commit}") ||
		die "TREE=$TREE: SERIES_REV=${SERIES_REV:-HEAD}: no such revision"
	if [[ -n ${BASE_REV:-} ]]; then
		base=$(git -C "$top" rev-parse --verify -q "$BASE_REV^{commit}") ||
			die "TREE=$TREE: BASE_REV=$BASE_REV: no such revision"
	elif rev=$(git -C "$top" rev-parse --verify -q "${SERIES_REV:-HEAD}@{upstream}^{commit}" 2>/dev/null); then
		base=$(git -C "$top" merge-base "$series" "$rev") ||
			die "TREE=$TREE: SERIES_REV=${SERIES_REV:-HEAD} and its upstream have no common commit: set BASE_REV"
	else
		base=''	# commit_of base says what to set
	fi
	# e.g. a fresh clone, whose branch's upstream is the same commit
	[[ $base != "$series" ]] ||
		die "TREE=$TREE: the base and the series are one commit (${series:0:12}): nothing to compare; set BASE_REV"
	min=$(lab_bases | head -n1)
	for what in SERIES_REV BASE_REV; do
		[[ $what == SERIES_REV ]] && rev=$series || rev=$base
		[[ -n $rev ]] || continue
		ver=$(own_tree_version "$top" "$rev")
		[[ -n $ver ]] ||
			die "TREE=$TREE: $what=${!what:-HEAD} (${rev:0:12}) has no Makefile with VERSION and PATCHLEVEL: not a Linux tree"
		# shellcheck disable=SC2086 # VERSION PATCHLEVEL, two words
		[[ -n $(own_tree_base $ver) ]] ||
			die "TREE=$TREE: $what=${!what:-HEAD} is Linux ${ver/ /.}, older than the lab supports (the oldest base: $min, config/$min/)"
	done
	if [[ ${TREE_DIRTY:-0} != 1 && -n $(git --no-optional-locks -C "$top" status --porcelain --untracked-files=no | head -n1) ]]; then
		die "TREE=$TREE: uncommitted changes, which the lab would not build (it builds commits): commit or stash them, or TREE_DIRTY=1 to build SERIES_REV without them"
	fi
	ver=$(own_tree_version "$top" "$series")
	# shellcheck disable=SC2086 # VERSION PATCHLEVEL, two words
	BASE=${BASE:-$(own_tree_base $ver)}
	export LAB_OWN_TREE=$top LAB_OWN_BASE=$base LAB_OWN_SERIES=$series BASE
}

# OWN_TREE: the user's checkout (TREE=), or empty for the lab's own tree
OWN_TREE=''
if [[ -n ${LAB_OWN_TREE:-} ]]; then
	OWN_TREE=$LAB_OWN_TREE
elif [[ -n ${TREE:-} ]]; then
	[[ ${TREE_DIRTY:-0} == 0 || $TREE_DIRTY == 1 ]] ||
		die "TREE_DIRTY=$TREE_DIRTY: expected 0 or 1 (1: build TREE's commits although it has uncommitted changes)"
	own_tree_resolve
	OWN_TREE=$LAB_OWN_TREE
else
	for _lab_knob in BASE_REV SERIES_REV TREE_DIRTY; do
		[[ -z ${!_lab_knob:-} ]] || die "$_lab_knob=${!_lab_knob}: only with TREE=<a kernel checkout of your own>"
	done
	unset _lab_knob
fi

# own_tree_paths: with TREE=, the lab's clone of it and its worktrees and object directories, in
# $LAB_CACHE/own/<name>-<hash of its path>/ (kernels, benches and results stay the base's: they are
# keyed by content, so the lab's tree and a clone of it share them)
own_tree_paths() {
	[[ -n $OWN_TREE ]] || return 0
	OWN_CACHE=$LAB_CACHE/own/${OWN_TREE##*/}-$(sha1sum <<<"$OWN_TREE" | cut -c1-8)
	TREE=$OWN_CACHE/linux
	# shellcheck disable=SC2034 # read by config.sh
	WORK_CACHE=$OWN_CACHE/$BASE
}

# own_tree_rev REV: with TREE=, REV as a revision of the user's revisions: HEAD (and HEAD~N...) is
# SERIES_REV, lab-base BASE_REV
own_tree_rev() {
	local rev=$1
	if [[ $rev == HEAD* ]]; then
		rev=$LAB_OWN_SERIES${rev#HEAD}
	elif [[ $rev == "$BASE_TAG"* ]]; then
		[[ -n $LAB_OWN_BASE ]] ||
			die "TREE=$OWN_TREE: no base revision: set BASE_REV=<revision>, or give SERIES_REV an upstream (git branch --set-upstream-to)"
		rev=$LAB_OWN_BASE${rev#"$BASE_TAG"}
	fi
	echo "$rev"
}

# own_tree_commit REV: with TREE=, the full id of REV: a commit of the lab's clone (a variant or a
# plant made there) or of the user's checkout; nothing when neither has it
own_tree_commit() {
	local rev
	rev=$(own_tree_rev "$1") || exit
	git -C "$TREE" rev-parse --verify -q "$rev^{commit}" 2>/dev/null ||
		git -C "$OWN_TREE" rev-parse --verify -q "$rev^{commit}"
}

# own_tree_knobs: with TREE=, the knobs that measure the same commits again, for the command a
# measuring target writes into its results (TREE=<the checkout> BASE_REV=<commit> SERIES_REV=<commit>
# [TREE_DIRTY=1], then a space): the revisions as the commits they were, which a branch that moves on
# does not change; nothing without TREE=, where BASE= alone names the lab's tree.
own_tree_knobs() {
	[[ -n $OWN_TREE ]] || return 0
	printf 'TREE=%q %sSERIES_REV=%s %s' "$OWN_TREE" "${LAB_OWN_BASE:+BASE_REV=$LAB_OWN_BASE }" "$LAB_OWN_SERIES" \
		"$([[ ${TREE_DIRTY:-0} == 1 ]] && echo 'TREE_DIRTY=1 ')"
}

# own_tree_sync: with TREE=, the lab's clone made (git clone --shared) or brought to the user's
# revisions: branch lab-own at SERIES_REV as its HEAD, tag lab-base at BASE_REV. Writes only there.
own_tree_sync() {
	[[ -n $OWN_TREE ]] || return 0
	if ! git -C "$TREE" rev-parse -q --git-dir >/dev/null 2>&1; then
		rm -rf "$TREE"
		mkdir -p "$(dirname "$TREE")"
		git clone -q --shared --no-checkout "$OWN_TREE" "$TREE"
		git -C "$TREE" config gc.auto 0
	fi
	git -C "$TREE" update-ref refs/heads/lab-own "$LAB_OWN_SERIES"
	git -C "$TREE" symbolic-ref HEAD refs/heads/lab-own
	if [[ -n $LAB_OWN_BASE ]]; then
		git -C "$TREE" tag -f "$BASE_TAG" "$LAB_OWN_BASE" >/dev/null
	else
		git -C "$TREE" tag -d "$BASE_TAG" >/dev/null 2>&1 || true
	fi
	note "TREE=$OWN_TREE: base ${LAB_OWN_BASE:0:12}, series ${LAB_OWN_SERIES:0:12}, config/$BASE/ (lab's clone: $TREE)"
}
