#!/bin/bash
# Producer scaling of the trigger benchmarks: -p1 against -p2 for two builds of the selftests bench
# (default: the base harness and the series harness), alternated in one run, wall clock.
#   scripts/compare/scaling.sh [-H] [-n ROUNDS] [-d SECONDS] [-A REV] [-B REV] [BENCH...]
#   -H  on the host kernel (default: in the VM, 2 vCPUs)     -n rounds (default 3)
#   -d  seconds measured per run, after a 1 s warm-up (default 5)
#   -A, -B  tree revisions whose bench is compared (default: lab-base and HEAD; make: REV)
# Benchmarks: names or families of config/benchmarks (default: the "trigger" family; on the host
# only the entries marked host). Each run has a time limit of SECONDS + 60. Scaling needs
# parallel vCPUs, so there is no icount mode: icount runs one online CPU. Prints one line per run,
# then a table of the mean rates and p2/p1; the log, the runs file and the table land in
# $LAB_CACHE/<base>/results/scaling-{host,vm}/<date>/ (scripts/lib/results.sh, with a `latest`
# link; the last line names it). RECORD=1 also writes it as a record, records/<base>/scaling/ (scripts/readout.py records). The runs go
# through scripts/measure.sh (runner scripts/guest/scaling-rounds.sh), the table is printed from its line.
# DRY_RUN=1 (make -n scaling) prints the commands, builds and boots nothing.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
own_group "$@"
check_knobs

usage="usage: scaling.sh [-H] [-n ROUNDS] [-d SECONDS] [-A REV] [-B REV] [BENCH...]"

on_host=0 rounds=3 secs=5 rev_a=$BASE_TAG rev_b=HEAD command="BASE=$BASE scripts/compare/scaling.sh $*"
while getopts :Hn:d:A:B:h opt; do
	case $opt in
	H) on_host=1 ;;
	n) rounds=$OPTARG ;;
	d) secs=$OPTARG ;;
	A) rev_a=$OPTARG ;;
	B) rev_b=$OPTARG ;;
	h) echo "$usage"; exit 0 ;;
	*) bad_option "$opt" "$OPTARG" "$usage" ;;
	esac
done
shift $((OPTIND - 1))
positive "$rounds" || die "-n: expected a number of rounds, got '$rounds'"
positive "$secs" || die "-d: expected a number of seconds, got '$secs'"
where=vm
((on_host)) && where=host
wanted=("${@:-trigger}")
unknown=$(registry_unknown "${wanted[@]}" | head -n1)
[[ -z $unknown ]] || die "no benchmark or family '$unknown' in config/benchmarks"
selected=$(registry_select "$where" "${wanted[@]}" | awk '{ print $2 }')
benchs=()
[[ -z $selected ]] || mapfile -t benchs <<<"$selected"
((${#benchs[@]})) || die "none of '${*:-trigger}' can run on the $where"
for b in "${benchs[@]}"; do
	[[ $b == trig-* ]] || die "'$b' is not a trigger benchmark (trig-*): only those count hits per producer"
done

out=$(results_dir "scaling-$where")
log=$out/scaling.log runs=$out/runs.jsonl
dry_run || : >"$runs"
measure=("$LAB_ROOT/scripts/measure.sh" -l "$log" -o "$runs" -B "$rev_a" -B "$rev_b")
runs_total=$((rounds * ${#benchs[@]} * 4))
note "$runs_total runs of $((secs + 1))s: ${benchs[*]}, -p1 and -p2"
if ((on_host)); then
	measure+=(-H)
else
	measure+=(-K "$rev_b" -c 2 -t $((runs_total * (secs + 4) + 120)))
fi
"${measure[@]}" -- scaling-rounds "$rounds" "$secs" "${benchs[@]}"
if dry_run; then
	echo "+ $(shown python3 "$LAB_ROOT/scripts/readout.py" benchout scaling "$runs") | tee $(shown "$out/table.txt")"
	lab_record --kind scaling --name "scaling-$where" --command "$command" "scaling.log=$log"
	results_done "$out"
	exit 0
fi

# the bench commits, as the run's line names them: "VARIANT=COMMIT VARIANT=COMMIT" (12 digits)
bench_ids=$(python3 "$LAB_ROOT/scripts/readout.py" benchout field bench "$runs")
read -r bench_a bench_b <<<"$bench_ids"
commit_a=${bench_a##*=} commit_b=${bench_b##*=}
{
	echo
	echo "A = $rev_a ($(git -C "$TREE" log -1 --format='%h %s' "$commit_a"))"
	echo "B = $rev_b ($(git -C "$TREE" log -1 --format='%h %s' "$commit_b"))"
	echo "Wall clock, $where, -w1 -d$secs, $rounds rounds alternated; mean of the rounds' Summary rates (M/s)"
	echo "and p2/p1 of those means, with the lowest and highest per-round ratio."
	python3 "$LAB_ROOT/scripts/readout.py" benchout scaling "$runs"
} | tee "$out/table.txt"
if [[ ${RECORD:-0} == 1 ]]; then
	clock=$(python3 "$LAB_ROOT/scripts/readout.py" benchout clock "$runs")
	lab_record --kind scaling --name "scaling-$where" \
		--clock "$clock" \
		--what "${benchs[*]} at -p1 and -p2, bench A ($rev_a) against bench B ($rev_b), on the $where, $rounds rounds" \
		--command "$command" --variant "A=$commit_a" --variant "B=$commit_b" "scaling.log=$log"
fi
results_done "$out"
