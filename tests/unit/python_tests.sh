#!/bin/bash
# The Python unit tests of the lab's scripts and of the freelist harness: every test_*.py under
# scripts/ and tools/testing/, run from its directory (it imports the module beside it), one KTAP
# line each.
# Plant: make compare's significance mark inverted (stats.mark() printing "~" for a significant
# difference).
# Plant command: sed -i 's/return "~" if p >= ALPHA else ""/return "~" if p < ALPHA else ""/' scripts/compare/stats.py
# Plant: the cover letter of make series and make mbox without its Cc lines.
# Plant command: sed -i 's/ + ("\\n\\n" + cc if cc else "")$//' scripts/cover_letter.py
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

mapfile -t files < <(cd "$LAB_ROOT" && find scripts tools/testing -name 'test_*.py' | sort)
ktap_plan "${#files[@]}"
for f in "${files[@]}"; do
	if out=$(cd "$LAB_ROOT/$(dirname "$f")" && /usr/bin/python3 "$(basename "$f")" 2>&1); then
		ktap_ok "$f"
	else
		sed 's/^/# /' <<<"$out"
		ktap_not_ok "$f"
	fi
done
ktap_finish
