#!/bin/bash
# make regress resumes a suite cut short by dropping the tests that finished from its list, and
# retries the tests that failed by keeping only those. Either list may be empty: a test_maps run
# killed before its end finished nothing, a test_progs run may fail nothing. An empty list must
# drop nothing and keep nothing (awk's NR == FNR reads the second file as the list when the first
# is empty: the killed test_maps then "resumed" with nothing to run, and the retry of a suite with
# no failure would run the whole suite again).
# Plant: the NR == FNR idiom back in drop_listed and keep_listed.
# Plant command: sed -i 's/FILENAME == ARGV\[1\]/NR == FNR/' scripts/lib/regress-runs.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../../scripts/lib/regress-runs.sh
. "$S/lib/regress-runs.sh"

regress_resume_lists_allow_an_empty_side() {
	local got case fn list want
	printf '%s\n' 'a x' 'b y' 'c z' >"$scratch/plan"
	while IFS='|' read -r case fn list want; do
		printf '%b' "$list" >"$scratch/list"
		got=$("$fn" "$scratch/list" "$scratch/plan" | paste -sd' ')
		if [[ $got != "$want" ]]; then
			printf '%s: %s got "%s", expected "%s"\n' "$case" "$fn" "$got" "$want"
			return 1
		fi
		echo "$case: ok"
	done <<'EOF_CASES'
nothing finished|drop_listed||a x b y c z
b finished|drop_listed|b rc=0\n|a x c z
all finished|drop_listed|a\nb\nc\n|
nothing failed|keep_listed||
b failed|keep_listed|b\n|b y
EOF_CASES
}

run_test regress_resume_lists_allow_an_empty_side "$@"
