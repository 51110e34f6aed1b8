#!/bin/bash
# make mbox: the series (cover letter first) as one threaded mbox, for `git am --empty=drop` or `b4 am -m`.
#   scripts/mbox.sh [OUTPUT]   (default: $LAB_CACHE/series.mbox)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:-$LAB_CACHE/series.mbox}
mapfile -t files < <(ls "$LAB_ROOT"/patches/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null)
((${#files[@]})) || die "patches/ is empty: nothing to put in an mbox"
mkdir -p "$(dirname "$out")"
# Unfold continued header lines (git folds a long From:), which b4 rejects, and thread the
# messages the way git send-email does: each patch In-Reply-To the cover letter, Message-Ids made
# from the series' content and the configured sender's domain.
domain=$(git config user.email | sed 's/.*@//')
series_id=$(cat "${files[@]}" | sha1sum | cut -c1-16)
cat "${files[@]}" | awk -v id="$series_id" -v domain="${domain:-localhost}" '
	function flush() { if (held != "") print held; held = "" }
	/^From [0-9a-f]+ Mon Sep 17 00:00:00 2001$/ { flush(); in_header = 1; print; n++; next }
	in_header && /^$/ {
		flush()
		printf "Message-Id: <%s.%d.lab@%s>\n", id, n - 1, domain
		if (n > 1)
			printf "In-Reply-To: <%s.0.lab@%s>\nReferences: <%s.0.lab@%s>\n", id, domain, id, domain
		in_header = 0
	}
	in_header && /^[ \t]/ { sub(/^[ \t]+/, " "); held = held $0; next }
	{ flush(); held = $0 }
	END { flush() }
' >"$out"
note "wrote ${#files[@]} messages to $out"
echo "$out"
