#!/bin/bash
# The guest runner of make scaling (scripts/measure.sh RUNNER scaling-rounds), on the host or in the VM:
# each trigger benchmark at -p1 and -p2 with two builds of the selftests bench, alternated.
#   scripts/guest/scaling-rounds.sh -b DIR_A -b DIR_B ROUNDS SECONDS BENCH...
# Each run's output as bench wrote it, between "lab-raw: scaling BENCH A|B pN" and "lab-raw-end:
# rc=N"; the host reads its hits rate (scripts/readout.py benchout).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
check_knobs
usage="usage: scripts/guest/scaling-rounds.sh -b DIR_A -b DIR_B ROUNDS SECONDS BENCH..."
runner_benchs "$usage" "$@"
shift $((OPTIND - 1))
dirs=("${runner_dirs[@]}")
((${#dirs[@]} == 2 && $# >= 3)) || die "$usage"
rounds=$1 secs=$2
shift 2
for ((r = 1; r <= rounds; r++)); do
	for b in "$@"; do
		for p in 1 2; do
			# alternate which harness goes first, so neither always runs second
			order="A B"
			((r % 2)) || order="B A"
			for h in $order; do
				dir=${dirs[0]}
				[[ $h == B ]] && dir=${dirs[1]}
				echo "lab-raw: scaling $b $h p$p"
				rc=0
				(cd "$dir" && timeout -k 5 $((secs + 60)) ./bench -w1 -d"$secs" -p"$p" "$b" 2>&1) || rc=$?
				echo "lab-raw-end: rc=$rc"
			done
		done
	done
done
