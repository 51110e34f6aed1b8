#!/bin/bash
# The round trip is exact: the series applied to the pristine base (git am), then written back with
# series.sh (git format-patch), gives patches/<base>/ byte for byte.
# Plant: series.sh writing anything else than git format-patch --zero-commit wrote (say a dated From line).
# Plant command: sed -i 's/--zero-commit//' scripts/series.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

series_round_trip_is_exact() {
	need_patches
	# shellcheck disable=SC2046 # one word per patch
	scratch_worktree "$scratch/tree" $(patches)
	# shellcheck disable=SC2046
	"$S/apply-series.sh" "$scratch/tree" $(patches)
	SERIES_TREE=$scratch/tree "$S/series.sh" "$scratch/patches"
	diff -r -x cover-letter.txt "$PATCHES" "$scratch/patches"
}

run_test series_round_trip_is_exact "$@"
