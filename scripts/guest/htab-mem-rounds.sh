#!/bin/bash
# The guest runner of scripts/compare/htab-mem.sh (scripts/measure.sh RUNNER htab-mem-rounds), in the 6.1
# series VM: each use case and flavour with the series' htab-mem (pairing barrier and turn),
# upstream's (htab-mem-upstream) and, with a second bench, the series' htab-mem of a variant, in an
# order that rotates every round.
#   scripts/guest/htab-mem-rounds.sh -b DIR [-b VARIANT_DIR] ROUNDS WARMUP SECONDS PRODUCERS
# Each run's output as bench wrote it, between "lab-raw: htab-mem IMPL USE_CASE FLAVOUR" and
# "lab-raw-end: rc=N"; the host makes its "htab-mem: ..." line (scripts/readout.py benchout).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
check_knobs
usage="usage: scripts/guest/htab-mem-rounds.sh -b DIR [-b VARIANT_DIR] ROUNDS WARMUP SECONDS PRODUCERS"
runner_benchs "$usage" "$@"
shift $((OPTIND - 1))
dirs=("${runner_dirs[@]}")
((${#dirs[@]} >= 1 && ${#dirs[@]} <= 2 && $# == 4)) || die "$usage"
rounds=$1 warmup=$2 secs=$3 prods=$4 vdir=${dirs[1]:-}
impls=(barrier turn upstream)
[[ -z $vdir ]] || impls+=(variant)
cd "${dirs[0]}"
for ((r = 0; r < rounds; r++)); do
	for use_case in overwrite batch_add_batch_del add_del_on_diff_cpu; do
		for flavour in bpf-ma prealloc; do
			for ((i = 0; i < ${#impls[@]}; i++)); do
				impl=${impls[(i + r) % ${#impls[@]}]}
				args=(-w"$warmup" -d"$secs" -p"$prods" --prod-affinity 0-$((prods - 1)))
				bench=./bench
				case $impl in
				barrier) args+=(htab-mem) ;;
				turn) args+=(htab-mem --pairing turn) ;;
				upstream) args+=(htab-mem-upstream) ;;
				variant) args+=(htab-mem) bench=$vdir/bench ;;
				esac
				args+=(--use-case "$use_case")
				[[ $flavour == bpf-ma ]] || args+=(--preallocated)
				echo "lab-raw: htab-mem $impl $use_case $flavour"
				rc=0
				timeout -k 5 $((warmup + secs + 60)) "$bench" "${args[@]}" 2>&1 || rc=$?
				echo "lab-raw-end: rc=$rc"
			done
		done
	done
done
