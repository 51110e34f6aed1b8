# Common helpers for the lab scripts. Source it; do not run it.
# shellcheck shell=bash

LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../config/lab.conf
. "$LAB_ROOT/config/lab.conf"

LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bpf-lab}
BASE_DIR=$LAB_CACHE/base/linux-$BASE_PACKAGE_VERSION	# pristine, extracted base
TREE=${TREE:-$LAB_CACHE/linux}				# git tree: base commit + series
BUILD_SRC=$LAB_CACHE/build-src				# worktree the kernels are built from
KERNELS=$LAB_CACHE/kernels				# built kernels, one dir per variant
RESULTS=$LAB_CACHE/results
BASE_TAG=lab-base					# tag of the base commit in $TREE
JOBS=${JOBS:-$(nproc)}

die() {
	echo "error: $*" >&2
	exit 1
}

note() {
	echo ">>> $*" >&2
}

# step "what" cmd args...: announce a long step, run it, print how long it took.
step() {
	local what=$1 start=$SECONDS rc=0
	shift
	note "$what ..."
	"$@" || rc=$?
	if ((rc)); then
		note "$what: FAILED after $((SECONDS - start))s"
		return "$rc"
	fi
	note "$what: done in $((SECONDS - start))s"
}

need() {
	local cmd
	for cmd in "$@"; do
		command -v "$cmd" >/dev/null || die "missing '$cmd' (run: make deps)"
	done
}

# Builds share one worktree ($BUILD_SRC): hold this lock from checkout to the end of the build.
lock_build_src() {
	[[ -z ${LAB_BUILD_LOCKED:-} ]] || return 0	# a parent holds it (children inherit fd 9)
	export LAB_BUILD_LOCKED=1
	mkdir -p "$LAB_CACHE"
	exec 9>"$LAB_CACHE/build-src.lock"
	if ! flock -n 9; then
		note "waiting for another build in $BUILD_SRC"
		flock 9
	fi
}

# registry_select WHERE [NAME_OR_FAMILY...]: the entries of config/benchmarks that can run WHERE
# (vm or host) and match one of the names or families (every entry when none is given), one
# "family name args" line each, in the registry's order.
registry_select() {
	local where=$1 family name places args want
	shift
	while read -r family name places args; do
		[[ -z $family || $family == \#* ]] && continue
		[[ ,$places, == *,$where,* ]] || continue
		if (($#)); then
			for want in "$@"; do
				[[ $want == "$name" || $want == "$family" ]] && break
			done
			[[ $want == "$name" || $want == "$family" ]] || continue
		fi
		echo "$family $name $args"
	done <"$LAB_ROOT/config/benchmarks"
}

# registry_unknown NAME_OR_FAMILY...: those of the arguments that are neither the name nor the
# family of any entry of config/benchmarks, wherever it runs.
registry_unknown() {
	local want
	for want in "$@"; do
		awk -v w="$want" '$1 !~ /^#/ && ($1 == w || $2 == w) { found = 1 } END { exit !found }' \
			"$LAB_ROOT/config/benchmarks" || echo "$want"
	done
}

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
