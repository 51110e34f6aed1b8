#!/bin/bash
# make mbox: the series (cover letter first) as one mbox file, for `git am --empty=drop` or `b4 am -m`.
#   scripts/mbox.sh [OUTPUT]   (default: $LAB_CACHE/series.mbox)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:-$LAB_CACHE/series.mbox}
mapfile -t files < <(ls "$LAB_ROOT"/patches/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null)
((${#files[@]})) || die "patches/ is empty: nothing to put in an mbox"
mkdir -p "$(dirname "$out")"
# Unfold continued header lines (git folds a long From:); b4 rejects folded header values.
cat "${files[@]}" | awk '
	/^From [0-9a-f]+ Mon Sep 17 00:00:00 2001$/ { in_header = 1 }
	in_header && /^$/ { in_header = 0 }
	in_header && /^[ \t]/ { sub(/^[ \t]+/, " "); held = held $0; next }
	{ if (held != "") print held; held = $0 }
	END { if (held != "") print held }
' >"$out"
note "wrote ${#files[@]} messages to $out"
echo "$out"
