#!/bin/bash
# The guest runner of make bench and make compare (scripts/measure.sh RUNNER suite): run benchmarks
# of config/benchmarks with a built `bench`, one after the other, where it is started: in the lab VM
# or on the host (make host-bench).
#   scripts/guest/suite.sh -b BENCH_DIR -w vm|host [-d SECONDS] [-W SECONDS] [-x 'NAME...'] [NAME_OR_FAMILY...]
#   -x  skip these benchmarks (reported as skipped, not failed); on a host without tracefs, those
#       that need it are skipped too
# Each result is printed as a machine-readable line, which scripts/benchout.py reads (make bench's
# summary table is printed from them, on the host):
#   lab-result: NAME FAMILY MEAN STDDEV UNIT
# and, for a benchmark that reports the memory it holds (htab-mem), one or two more:
#   lab-memory: NAME FAMILY MEAN STDDEV PEAK MiB
#   lab-map-growth: NAME FAMILY MEAN STDDEV PEAK MiB
# A benchmark without a result: lab-missing: NAME FAMILY skipped|FAILED|no summary line
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
	# shellcheck disable=SC2086 # the registry's arguments are words
	if ! out=$(./bench -w"$warmup" -d"$duration" $args 2>&1); then
		echo "$out" | tail -n 5 >&2
		echo "lab-missing: $name $family FAILED"
		failed=$((failed + 1))
		continue
	fi
	# The result lines, from the Summary line whatever its benchmark's format (scripts/benchout.py)
	if ! lab=$(python3 "$LAB_ROOT/scripts/benchout.py" lab "$name" "$family" <<<"$out"); then
		echo "$out" | tail -n 5 >&2
		echo "lab-missing: $name $family no summary line"
		failed=$((failed + 1))
		continue
	fi
	# A benchmark's own warnings (e.g. an outcome that does not match its mode) must be seen.
	grep -E '^(WARNING|Outcomes|Memory|Expected)' <<<"$out" >&2 || true
	echo "$lab"
done
exit $((failed > 0))
