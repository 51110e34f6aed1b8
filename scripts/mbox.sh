#!/bin/bash
# make mbox: the series (cover letter first) as one mbox file, for `git am --empty=drop` or `b4 am -m`.
#   scripts/mbox.sh [OUTPUT]   (default: $LAB_CACHE/series.mbox)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:-$LAB_CACHE/series.mbox}
mapfile -t files < <(ls "$LAB_ROOT"/patches/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null)
((${#files[@]})) || die "patches/ is empty: nothing to put in an mbox"
mkdir -p "$(dirname "$out")"
cat "${files[@]}" >"$out"
note "wrote ${#files[@]} messages to $out"
echo "$out"
