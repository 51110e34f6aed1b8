#!/bin/bash
# The round trip is exact: the series applied to the pristine base (git am, series after series as
# make tree applies them, each end marked by its lab-series/ branch), then written back with
# series.sh (git format-patch), gives patches/<base>/ byte for byte, series directories and all.
# Plant: series.sh writing anything else than git format-patch --zero-commit wrote (say a dated From line).
# Plant command: sed -i 's/--zero-commit//' scripts/series.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

series_round_trip_is_exact() {
	need_patches
	# A clone, not a worktree: the lab-series/ branches are its own, not the tree's.
	# shellcheck disable=SC2046 # one word per patch
	scratch_clone_of "$TREE" "$scratch/tree" $(patches)
	apply_base_series "$scratch/tree"
	SERIES_TREE=$scratch/tree "$S/series.sh" "$scratch/patches"
	diff -r -x cover-letter.txt "$PATCHES" "$scratch/patches"
	echo "$(series_dirs | wc -l) series, $(patches | wc -l) patches: the same bytes"
}

run_test series_round_trip_is_exact "$@"
