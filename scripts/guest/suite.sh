#!/bin/bash
# The guest runner of make bench and make compare (scripts/measure.sh RUNNER suite): run benchmarks
# of config/benchmarks with a built `bench`, one after the other, where it is started: in the lab VM
# or on the host (make host-bench).
#   scripts/guest/suite.sh -b BENCH_DIR -w vm|host [-d SECONDS] [-W SECONDS] [-x 'NAME...'] [NAME_OR_FAMILY...]
#   -x  skip these benchmarks (reported as skipped, not failed); on a host without tracefs, those
#       that need it are skipped too
# Each run's output is printed as bench wrote it, between two markers that the host reads
# (scripts/readout.py benchout, which reads the output too, once; make bench's summary table is printed
# from what it reads):
#   lab-raw: bench NAME FAMILY
#   ...bench's output...
#   lab-raw-end: rc=N
# A benchmark skipped: lab-missing: NAME FAMILY skipped
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
check_knobs

bench_dir='' where=vm duration=${DURATION:-$SUITE_DURATION} warmup=${WARMUP:-$SUITE_WARMUP} skip=''
while getopts :b:w:d:W:x: opt; do
	case $opt in
	b) bench_dir=$OPTARG ;;
	w) where=$OPTARG ;;
	d) duration=$OPTARG ;;
	W) warmup=$OPTARG ;;
	x) skip+=" $OPTARG" ;;
	*) bad_option "$opt" "$OPTARG" "usage: suite.sh -b BENCH_DIR -w vm|host [-d SECONDS] [-W SECONDS] [-x NAMES] [NAME_OR_FAMILY...]" ;;
	esac
done
shift $((OPTIND - 1))
[[ -x $bench_dir/bench ]] || die "no bench in '$bench_dir'"
[[ $where == vm || $where == host ]] || die "where must be vm or host, not '$where'"

# Tracepoint benchmarks look tracepoints up in tracefs: on a host where it is mounted nowhere (and
# scripts/measure.sh could not mount it in a private mount namespace), skip them, saying why.
if [[ $where == host && ! -e /sys/kernel/tracing/events && ! -e /sys/kernel/debug/tracing/events ]]; then
	note "tracefs is not mounted and cannot be mounted in a private mount namespace: skipping $TRACEFS_BENCHS"
	skip+=" $TRACEFS_BENCHS"
fi
mapfile -t selected < <(registry_select "$where" "$@")
((${#selected[@]})) || die "no benchmark in config/benchmarks matches '$*' for $where"

cd "$bench_dir"
failed=0
for line in "${selected[@]}"; do
	read -r family name args <<<"$line"
	if [[ " $skip " == *" $name "* ]]; then
		echo "lab-missing: $name $family skipped"
		continue
	fi
	note "$name: ./bench -w$warmup -d$duration $args"
	echo "lab-raw: bench $name $family"
	rc=0
	# shellcheck disable=SC2086 # the registry's arguments are words
	./bench -w"$warmup" -d"$duration" $args 2>&1 || rc=$?
	echo "lab-raw-end: rc=$rc"
	((rc == 0)) || failed=$((failed + 1))
done
exit $((failed > 0))
