#!/bin/bash
# The guest runner of make scaling (scripts/measure.sh RUNNER scaling-rounds), on the host or in the VM:
# each trigger benchmark at -p1 and -p2 with two builds of the selftests bench, alternated.
#   scripts/guest/scaling-rounds.sh -b DIR_A -b DIR_B ROUNDS SECONDS BENCH...
# One line per run: "scaling: BENCH A|B pN MEAN STDDEV" (the hits rate of its Summary line, M/s)
# or "scaling: BENCH A|B pN fail WHY".
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
check_knobs
benchout=$LAB_ROOT/scripts/benchout.py
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
				out=$(cd "$dir" && timeout -k 5 $((secs + 60)) ./bench -w1 -d"$secs" -p"$p" "$b" 2>&1) || true
				# the hits rate of the Summary line (scripts/benchout.py), in M/s
				rate=$(python3 "$benchout" rate -m hits <<<"$out" 2>&1) || rate="fail $rate"
				read -r mean stddev unit <<<"$rate"
				if [[ $mean != fail && $unit == M/s ]]; then
					echo "scaling: $b $h p$p $mean $stddev"
				else
					why=$(grep -m1 -iE 'fail|error|denied|not supported' <<<"$out" || echo "${rate#fail }")
					echo "scaling: $b $h p$p fail $why"
				fi
			done
		done
	done
done
