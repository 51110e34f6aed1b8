#!/bin/bash
# No two files of the lab's code share a name across scripts/, scripts/lib/, scripts/guest/ and
# scripts/compare/ (Documentation/lab.md's first screen): a name says which one is meant, as
# htab-mem.sh and scaling.sh, each a command of scripts/compare/ and a runner of scripts/guest/,
# did not.
# Plant: a runner of scripts/guest/ named as a command of scripts/compare/ again.
# Plant command: git mv -q scripts/guest/scaling-rounds.sh scripts/guest/scaling.sh 2>/dev/null || mv scripts/guest/scaling-rounds.sh scripts/guest/scaling.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

script_names_are_unique() {
	local files twice
	files=$(find "$LAB_ROOT/scripts" "$LAB_ROOT/scripts/lib" "$LAB_ROOT/scripts/guest" "$LAB_ROOT/scripts/compare" \
		-mindepth 1 -maxdepth 1 -type f -printf '%f %h\n' | sort -u)
	echo "$(wc -l <<<"$files") files in scripts/, scripts/lib/, scripts/guest/ and scripts/compare/"
	twice=$(awk '{ n[$1]++; d[$1] = d[$1] " " $2 } END { for (f in n) if (n[f] > 1) print f ":" d[f] }' <<<"$files" |
		sed "s|$LAB_ROOT/||g")
	[[ -z $twice ]] || { echo "names used twice: $twice"; return 1; }
}

run_test script_names_are_unique "$@"
