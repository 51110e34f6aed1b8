#!/bin/bash
# Apply patches to a kernel git tree with git am, one commit per patch. On failure, abort the am,
# name the patch and the file that failed, and exit non-zero.
#   scripts/apply-series.sh TREE PATCH...
set -euo pipefail
. "$(dirname "$0")/lib.sh"
check_knobs

[[ $# -ge 1 && $1 != -* ]] || die "usage: apply-series.sh TREE PATCH..."
tree=$1
shift
for p in "$@"; do
	if ! out=$(git -C "$tree" am -q --keep-cr "$p" 2>&1); then
		git -C "$tree" am --abort >/dev/null 2>&1 || true
		file=$(sed -nE 's/^error: patch failed: (.*):[0-9]+$/\1/p; s/^error: (.*): (does not exist in index|already exists in index|No such file or directory)$/\1/p' <<<"$out" | head -n1)
		[[ -n $file ]] || file=$(sed -nE 's/^(error|fatal): (.*)$/\2/p' <<<"$out" | head -n1)
		die "patch $(basename "$p") does not apply: ${file:-unknown reason}"
	fi
done
