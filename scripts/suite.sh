#!/bin/bash
# Run benchmarks from config/benchmarks with a built `bench`, one after the other, and print a summary.
# Runs wherever it is started: inside the lab VM (make bench) or on the host (make host-bench).
#   scripts/suite.sh -b BENCH_DIR -w vm|host [-d SECONDS] [-W SECONDS] [-x 'NAME...'] [NAME_OR_FAMILY...]
#   -x  skip these benchmarks (reported as skipped, not failed)
# Each result is also printed as a machine-readable line:
#   lab-result: NAME FAMILY MEAN STDDEV UNIT
# and, for a benchmark that reports the memory it holds (htab-mem), one or two more:
#   lab-memory: NAME FAMILY MEAN STDDEV PEAK MiB
#   lab-map-growth: NAME FAMILY MEAN STDDEV PEAK MiB
set -euo pipefail
. "$(dirname "$0")/lib.sh"
check_knobs

bench_dir='' where=vm duration=${DURATION:-3} warmup=${WARMUP:-1} skip=''
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

mapfile -t selected < <(registry_select "$where" "$@")
((${#selected[@]})) || die "no benchmark in config/benchmarks matches '$*' for $where"

cd "$bench_dir"
failed=0
summary=()
for line in "${selected[@]}"; do
	read -r family name args <<<"$line"
	if [[ " $skip " == *" $name "* ]]; then
		summary+=("$(printf '%-28s skipped' "$name")")
		continue
	fi
	note "$name: ./bench -w$warmup -d$duration $args"
	# shellcheck disable=SC2086 # the registry's arguments are words
	if ! out=$(./bench -w"$warmup" -d"$duration" $args 2>&1); then
		echo "$out" | tail -n 5 >&2
		summary+=("$(printf '%-28s FAILED' "$name")")
		failed=$((failed + 1))
		continue
	fi
	# The result lines, from the Summary line whatever its benchmark's format (scripts/benchout.py)
	if ! lab=$(python3 "$LAB_ROOT/scripts/benchout.py" lab "$name" "$family" <<<"$out"); then
		echo "$out" | tail -n 5 >&2
		summary+=("$(printf '%-28s no summary line' "$name")")
		failed=$((failed + 1))
		continue
	fi
	# A benchmark's own warnings (e.g. an outcome that does not match its mode) must be seen.
	grep -E '^(WARNING|Outcomes|Memory|Expected)' <<<"$out" >&2 || true
	echo "$lab"
	read -r _ _ _ mean stddev unit < <(grep '^lab-result: ' <<<"$lab")
	line=$(printf '%-28s %10s ± %-8s %-5s' "$name" "$mean" "$stddev" "$unit")
	# htab-mem's memory usage (upstream's figure, its cgroup's, on every base) and, where the
	# benchmark reports it (6.1's series), the hash map's own growth
	if memory=$(grep '^lab-memory: ' <<<"$lab"); then
		read -r _ _ _ mem_mean mem_stddev mem_peak _ <<<"$memory"
		line+=$(printf '   memory %8s ± %-6s MiB, peak %s MiB' "$mem_mean" "$mem_stddev" "$mem_peak")
	fi
	if memory=$(grep '^lab-map-growth: ' <<<"$lab"); then
		read -r _ _ _ mem_mean mem_stddev mem_peak _ <<<"$memory"
		line+=$(printf '; map growth %s ± %s MiB, peak %s MiB' "$mem_mean" "$mem_stddev" "$mem_peak")
	fi
	summary+=("$line")
done

echo
echo "Summary ($where, bench -w$warmup -d$duration):"
printf '  %s\n' "${summary[@]}"
exit $((failed > 0))
