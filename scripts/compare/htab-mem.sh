#!/bin/bash
# 6.1's htab-mem against upstream's, in one boot of the 6.1 series VM, alternated: each use case and
# flavour runs with the series' htab-mem (default pairing: barrier, as upstream's), with its
# --pairing turn, and with upstream's own htab-mem (lab/variants/htab-mem-upstream.sh), in an order
# that rotates every round. Wall clock (TCG or KVM, 2 vCPUs, bench -pN --prod-affinity 0-(N-1)).
#   BASE=6.1 scripts/compare/htab-mem.sh [-n ROUNDS] [-w SECS] [-d SECS] [-p PRODUCERS] [-r REV] [-v VARIANT] [-R]
#   -n rounds (default 3)   -w, -d  bench's warm-up and measured seconds (default 2 and 5)
#   -p producers, even (default 2)   -r the tree revision (default HEAD)
#   -v  also run the series' htab-mem of VARIANT, a measurement-only variant of lab/variants/index
#       whose root is the series (htab-mem-map-in-bench; lab/variants/NAME.patch names NAME too),
#       as a fourth implementation named 'variant'
#       (its column in the table; take -n a multiple of 4, so that each runs in every place)
#   -R  the same as RECORD=1 (kept for the commands of older records): record the log and the
#       table, records/6.1/htab-mem/<date>-htab-mem-vs-upstream/ (scripts/readout.py records)
# Prints each run of bench as it came (its "htab-mem: ..." line is made on the host), then the table:
# medians over the rounds, each implementation's op rate against upstream's with Welch's t-test.
# The runs go through scripts/measure.sh (runner scripts/guest/htab-mem-rounds.sh), in one VM boot; the
# table is printed from its line. The log, runs file and table land in
# $LAB_CACHE/<base>/results/htab-mem-vs-upstream/<date>/ (scripts/lib/results.sh); the last line names it.
# DRY_RUN=1 prints the commands, builds and boots nothing.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
own_group "$@"
check_knobs

usage="usage: htab-mem.sh [-n ROUNDS] [-w SECONDS] [-d SECONDS] [-p PRODUCERS] [-r REV] [-v VARIANT] [-R]"
readout=$LAB_ROOT/scripts/readout.py

rounds=3 warmup=2 secs=5 prods=2 rev=HEAD variant='' command="BASE=$BASE scripts/compare/htab-mem.sh $*"
while getopts :n:w:d:p:r:v:Rh opt; do
	case $opt in
	n) rounds=$OPTARG ;;
	w) warmup=$OPTARG ;;
	d) secs=$OPTARG ;;
	p) prods=$OPTARG ;;
	r) rev=$OPTARG ;;
	v) variant=$OPTARG ;;
	R) export RECORD=1 ;;
	h) echo "$usage"; exit 0 ;;
	*) bad_option "$opt" "$OPTARG" "$usage" ;;
	esac
done
shift $((OPTIND - 1))
(($# == 0)) || die "unexpected argument '$1' ($usage)"
positive "$rounds" || die "-n: expected a number of rounds, got '$rounds'"
positive "$warmup" || die "-w: expected a number of seconds, got '$warmup'"
positive "$secs" || die "-d: expected a number of seconds, got '$secs'"
{ positive "$prods" && ((prods % 2 == 0)); } ||
	die "-p: expected an even number of producers (add_del_on_diff_cpu pairs them), got '$prods'"
[[ $BASE == 6.1 ]] || die "only 6.1's series carries an htab-mem of its own (BASE=6.1, not $BASE)"
[[ -z $variant ]] || variant=$(variant_name "$variant")

commit='' vcommit=''
stage_tree
stage_out commit "$LAB_ROOT/lab/variants/htab-mem-upstream.sh" "$rev"
benchs=(-B "$commit")
if [[ -n $variant ]]; then
	stage_out vcommit variant_commit "$variant" "$rev" || die "-v $variant does not apply on $rev"
	benchs+=(-B "$vcommit")
fi
out=$(results_dir htab-mem-vs-upstream)
log=$out/runs.log runs=$out/runs.jsonl
dry_run || : >"$runs"
nimpl=$((${#benchs[@]} / 2 + 2))
runs_total=$((rounds * 6 * nimpl))
note "$runs_total runs of $((warmup + secs)) s, $prods producers"
"$LAB_ROOT/scripts/measure.sh" -K "$rev" "${benchs[@]}" -c "$((prods > 2 ? prods : 2))" -t $((runs_total * (warmup + secs + 8) + 120)) \
	-l "$log" -o "$runs" -- htab-mem-rounds "$rounds" "$warmup" "$secs" "$prods"
if dry_run; then
	echo "+ $(shown /usr/bin/python3 "$readout" htab-mem-table table "$runs") > $(shown "$out/table.txt")"
	lab_record --kind htab-mem --name htab-mem-vs-upstream --command "$command" "runs.log=$log" "table.txt=$out/table.txt"
	results_done "$out"
	exit 0
fi
dir=$("$LAB_ROOT/scripts/bench-build.sh" -n "$commit")
vdir=''
[[ -z $variant ]] || vdir=$("$LAB_ROOT/scripts/bench-build.sh" -n "$vcommit")

summary=$(
	echo "6.1 series ($(git -C "$TREE" log -1 --format='%h %s' "$rev")), bench of $(basename "$dir")"
	[[ -z $vdir ]] || echo "variant: the series' htab-mem with $variant, bench of $(basename "$vdir")"
	echo "bench -w$warmup -d$secs -p$prods --prod-affinity 0-$((prods - 1)), $rounds rounds alternated;"
	echo "medians of the rounds: per-producer op rate (k/s) and memory usage (MiB, the benchmark's"
	echo "cgroup, as upstream's reports it); x upstream: op rate over upstream's ('~': no significant difference, Welch's t-test)"
	/usr/bin/python3 "$readout" htab-mem-table table "$runs"	# scipy: Debian's python3-scipy (make deps)
)
echo
echo "$summary"
echo "$summary" >"$out/table.txt"
if [[ ${RECORD:-0} == 1 ]]; then
	clock=$(python3 "$LAB_ROOT/scripts/readout.py" benchout clock "$runs")
	series_commit=$(git -C "$TREE" rev-parse --short=12 "$rev")
	lab_record --kind htab-mem --name htab-mem-vs-upstream \
		--clock "$clock" \
		--what "6.1's htab-mem (pairing barrier and turn$([[ -z $vdir ]] || echo ", and the variant $variant")) against upstream's, every use case and flavour, alternated in one VM boot, $prods producers, $rounds rounds" \
		--command "$command" --variant "series=$series_commit" "runs.log=$log" "table.txt=$out/table.txt"
fi
results_done "$out"
