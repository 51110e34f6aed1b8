#!/bin/bash
# A whole suite (test_maps, test_verifier, test_lru_map) runs under WHOLE_LIMIT, which is not
# part of the selection key: a kept run (in the cache, or a recorded base's) stands only if it
# has the result a run under the limit now would have. It does if it ended within the limit, or
# if a limit at least as long killed it (rc=137: TIMEOUT); it does not if a shorter limit killed
# it (it would stand as TIMEOUT under a longer one) or if it took longer than the limit now (it
# would stand as OK or FAIL where a run now times out). last_end reads the run's last end marker.
# Plant: a kept run that a shorter limit killed stands.
# Plant command: sed -i 's/((rc == 137 \&\& ran < limit))/((rc == 137 \&\& ran < 0))/' scripts/lib/regress-runs.sh
# Plant: a kept run that took longer than the limit now stands.
# Plant command: sed -i 's/((rc != 137 \&\& secs >= limit))/((rc != 137 \&\& secs < 0))/' scripts/lib/regress-runs.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../../scripts/lib/regress-runs.sh
. "$S/lib/regress-runs.sh"

regress_keeps_a_whole_suite_only_under_its_limit() {
	local case out limit ran want end got
	while IFS='|' read -r case out limit ran want; do
		printf '%b' "$out" >"$scratch/out"
		end=$(last_end "$scratch/out" test_maps)
		if [[ -z $end ]]; then
			got='no end'
		else
			# shellcheck disable=SC2086 # RC SECS
			got=$(whole_run_stands $end "$limit" "$ran") && got=stands
		fi
		if [[ $got != "$want"* ]]; then
			printf '%s: under %s (ran under %s): "%s", expected "%s..."\n' "$case" "$limit" "$ran" "$got" "$want"
			return 1
		fi
		echo "$case: ok ($got)"
	done <<'EOF_CASES'
killed at 3600, now 7200|lab-regress: start test_maps\nmap_tests ok\nlab-regress: end test_maps rc=137 secs=3601\n|7200|3600|its kept run was stopped after 3601 s by a time limit of 3600 s
killed at 3600, still 3600|lab-regress: start test_maps\nlab-regress: end test_maps rc=137 secs=3601\n|3600|3600|stands
killed at 7200, now 3600|lab-regress: end test_maps rc=137 secs=7201\n|3600|7200|stands
killed early (OOM) under the same limit|lab-regress: end test_maps rc=137 secs=20\n|3600|3600|stands
ended within the limit|lab-regress: start test_maps\nlab-regress: end test_maps rc=0 secs=1650\n|7200|3600|stands
failed within the limit|lab-regress: end test_maps rc=1 secs=20\n|3600|3600|stands
ended past the limit now|lab-regress: end test_maps rc=0 secs=5000\n|3600|7200|its kept run took 5000 s, past the time limit of 3600 s
the last of two runs|lab-regress: end test_maps rc=137 secs=3601\nlab-regress: end test_maps rc=0 secs=1650\n|7200|3600|stands
another suite's end|lab-regress: end test_verifier rc=137 secs=10\n|7200|3600|no end
no end: cut short|lab-regress: start test_maps\n|7200|3600|no end
EOF_CASES
}

run_test regress_keeps_a_whole_suite_only_under_its_limit "$@"
