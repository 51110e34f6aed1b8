#!/bin/bash
# The per-patch gates of the series (scripts/gates.sh): checkpatch --strict, each patch builds
# (kernel and bench), and no new W=1 or sparse warning against its parent.
# Plant: a patch with a checkpatch --strict finding (a line over 100 columns), or one that adds a W=1 warning.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

series_quality_gates() {
	need_patches
	"$S/gates.sh"
}

run_test series_quality_gates "$@"
