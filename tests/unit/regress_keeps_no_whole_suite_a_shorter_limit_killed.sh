#!/bin/bash
# A whole suite (test_maps, test_verifier) runs under WHOLE_LIMIT, which is not part of the
# selection key: a run that ended within a limit has the same result under a longer one. A run
# that a shorter limit killed is not: make regress must not keep it (it would stand as TIMEOUT)
# when WHOLE_LIMIT grows. killed_short finds that run; one that ended, or that the same or a
# longer limit killed, is kept.
# Plant: killed_short finds no run.
# Plant command: sed -i 's/t + 0 < limit + 0/t + 0 < 0/' scripts/lib/regress-runs.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../../scripts/lib/regress-runs.sh
. "$S/lib/regress-runs.sh"

regress_keeps_no_whole_suite_a_shorter_limit_killed() {
	local case out limit want got
	while IFS='|' read -r case out limit want; do
		printf '%b' "$out" >"$scratch/out"
		got=$(killed_short "$scratch/out" test_maps "$limit") || got=kept
		if [[ $got != "$want" ]]; then
			printf '%s: killed_short under %s gave "%s", expected "%s"\n' "$case" "$limit" "$got" "$want"
			return 1
		fi
		echo "$case: ok ($got)"
	done <<'EOF_CASES'
killed at 3601, now 7200|lab-regress: start test_maps\nmap_tests ok\nlab-regress: end test_maps rc=137 secs=3601\n|7200|3601
killed at 3601, still 3600|lab-regress: start test_maps\nlab-regress: end test_maps rc=137 secs=3601\n|3600|kept
ended within the limit|lab-regress: start test_maps\nlab-regress: end test_maps rc=0 secs=1650\n|7200|kept
failed within the limit|lab-regress: start test_maps\nlab-regress: end test_maps rc=1 secs=20\n|7200|kept
another suite killed|lab-regress: end test_verifier rc=137 secs=10\n|7200|kept
no end: cut short|lab-regress: start test_maps\n|7200|kept
EOF_CASES
}

run_test regress_keeps_no_whole_suite_a_shorter_limit_killed "$@"
