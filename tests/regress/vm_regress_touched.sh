#!/bin/bash
# CI's share of make regress: the series' kernel, built from the selftests' own config, runs
# test_verifier, test_lru_map and the test_progs tests of the code the series touches
# (config/ALLOWLIST) in the VM, and nothing that passes in the base's recorded full run fails
# (test_maps takes 18 minutes here: make regress runs it).
# Plant: a series that breaks a touched selftest (e.g. lab/plants/freelist-lossy-pop.patch on the series' commit).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_regress_touched() {
	local recorded
	recorded=$("$S/readout.py" records latest --base "$BASE" --kind regress --name regress 2>/dev/null)/base ||
		skip "no recorded run of the base: no regress record of $BASE (make regress BASE=$BASE RECORD=1)"
	"$S/regress.sh" -B "$recorded" -o "$scratch/regress" \
		-a "$(list_entries "$LAB_ROOT/config/ALLOWLIST" | paste -sd,)" test_progs test_verifier test_lru_map
}

run_test vm_regress_touched "$@"
