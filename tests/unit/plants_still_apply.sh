#!/bin/bash
# Every test's "# Plant command:" still changes the lab (tests/plants.sh -n, every tier): a plant
# that no longer matches proves nothing, and is found only when someone reruns it (README.md's
# numbers moved under matrix_is_current's first plant, found 2026-12-03).
# Plant: vm.sh's knob check reworded, so that the plant of vm_rejects_bad_options (which drops
# MAXCPUS=$maxcpus from it) no longer matches.
# Plant command: sed -i 's/ MAXCPUS=\$maxcpus / MAXCPUS="$maxcpus" /' scripts/vm.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

plants_still_apply() {
	local tiers
	tiers=$(cd "$LAB_ROOT/tests" && find . -mindepth 2 -maxdepth 2 -name '*.sh' -printf '%h\n' |
		sed 's|^\./||' | sort -u | paste -sd,)
	"$LAB_ROOT/tests/plants.sh" -n -t "$tiers" -o "$scratch/plants.log" 2>/dev/null || {
		grep -B2 '^PLANT' "$scratch/plants.log"
		return 1
	}
	echo "$(grep -c '^applies$' "$scratch/plants.log") plants apply (tiers $tiers)"
}

run_test plants_still_apply "$@"
