#!/bin/bash
# The series applies to the pristine base: the tree's base commit holds the package's files byte
# for byte, and git am of patches/<base>/ on it gives the tree's commits, messages and all.
# Plant: a base commit whose files differ from the package's (a file edited in the tree's lab-base commit), or a patch whose commit message differs from the tree's commit.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

series_applies_to_pristine_base() {
	local f
	need_patches
	# The base commit holds the pristine package's files: each file the series changes is byte
	# for byte the one extracted from the package.
	while read -r f; do
		[[ -f $BASE_DIR/$f ]] || continue	# added by an earlier patch
		git -C "$TREE" cat-file blob "$BASE_TAG:$f" | cmp -s - "$BASE_DIR/$f" ||
			{ echo "$f in $BASE_TAG differs from $BASE_DIR/$f"; return 1; }
	done < <(patches | xargs sed -n 's|^--- a/||p' | sort -u)
	# shellcheck disable=SC2046 # one word per patch
	scratch_worktree "$scratch/tree" $(patches)
	# shellcheck disable=SC2046
	"$S/apply-series.sh" "$scratch/tree" $(patches)
	same_commits_as_tree "$scratch/tree"
}

run_test series_applies_to_pristine_base "$@"
