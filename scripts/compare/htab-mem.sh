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
#   -R  record the log and the table: records/6.1/htab-mem/<date>-htab-mem-vs-upstream/ (scripts/records.py)
# Prints one "htab-mem: ..." line per run (scripts/compare/htab_mem_table.py), then the table:
# medians over the rounds, each implementation's op rate against upstream's with Welch's t-test.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
own_group "$@"
check_knobs

usage="usage: htab-mem.sh [-n ROUNDS] [-w SECONDS] [-d SECONDS] [-p PRODUCERS] [-r REV] [-v VARIANT] [-R]"
table=$LAB_ROOT/scripts/compare/htab_mem_table.py

# The runner, in the VM: htab-mem.sh --run ROUNDS WARMUP SECONDS PRODUCERS DIR [VARIANT_DIR]
if [[ ${1:-} == --run ]]; then
	rounds=$2 warmup=$3 secs=$4 prods=$5 dir=$6 vdir=${7:-}
	impls=(barrier turn upstream)
	[[ -z $vdir ]] || impls+=(variant)
	cd "$dir"
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
					out=$(timeout -k 5 $((warmup + secs + 60)) "$bench" "${args[@]}" 2>&1) || true
					python3 "$table" line "$impl" "$use_case" "$flavour" <<<"$out"
				done
			done
		done
	done
	exit 0
fi

rounds=3 warmup=2 secs=5 prods=2 record=0 rev=HEAD variant='' command="BASE=$BASE scripts/compare/htab-mem.sh $*"
while getopts :n:w:d:p:r:v:Rh opt; do
	case $opt in
	n) rounds=$OPTARG ;;
	w) warmup=$OPTARG ;;
	d) secs=$OPTARG ;;
	p) prods=$OPTARG ;;
	r) rev=$OPTARG ;;
	v) variant=$OPTARG ;;
	R) record=1 ;;
	h) echo "$usage"; exit 0 ;;
	*) bad_option "$opt" "$OPTARG" "$usage" ;;
	esac
done
shift $((OPTIND - 1))
(($# == 0)) || die "unexpected argument '$1' ($usage)"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "-n: expected a number of rounds, got '$rounds'"
[[ $warmup =~ ^[1-9][0-9]*$ ]] || die "-w: expected a number of seconds, got '$warmup'"
[[ $secs =~ ^[1-9][0-9]*$ ]] || die "-d: expected a number of seconds, got '$secs'"
[[ $prods =~ ^[1-9][0-9]*$ && $((prods % 2)) == 0 ]] ||
	die "-p: expected an even number of producers (add_del_on_diff_cpu pairs them), got '$prods'"
[[ $BASE == 6.1 ]] || die "only 6.1's series carries an htab-mem of its own (BASE=6.1, not $BASE)"
[[ -z $variant ]] || variant=$(variant_name "$variant")

"$LAB_ROOT/scripts/tree.sh"
commit=$("$LAB_ROOT/lab/variants/htab-mem-upstream.sh" "$rev")
dir=$("$LAB_ROOT/scripts/bench-build.sh" "$commit")
vdir=''
if [[ -n $variant ]]; then
	vcommit=$(variant_commit "$variant" "$rev") || die "-v $variant does not apply on $rev"
	vdir=$("$LAB_ROOT/scripts/bench-build.sh" "$vcommit")
fi
kernel=$("$LAB_ROOT/scripts/kernel.sh" "$rev")
mkdir -p "$RESULTS"
log=$RESULTS/htab-mem-vs-upstream.log
nimpl=3
[[ -z $vdir ]] || nimpl=4
runs=$((rounds * 6 * nimpl))
step "in the VM ($((prods > 2 ? prods : 2)) vCPUs, kernel of $rev): $runs runs of $((warmup + secs)) s, $prods producers" \
	"$LAB_ROOT/scripts/vm.sh" -k "$kernel" -c "$((prods > 2 ? prods : 2))" -t $((runs * (warmup + secs + 8) + 120)) -- \
	"$(guest_command "$LAB_ROOT/scripts/compare/htab-mem.sh" --run "$rounds" "$warmup" "$secs" "$prods" "$dir" "$vdir")" \
	2> >(tee "$log.err" >&2) | tee "$log"

summary=$(
	echo "6.1 series ($(git -C "$TREE" log -1 --format='%h %s' "$rev")), bench of $(basename "$dir")"
	[[ -z $vdir ]] || echo "variant: the series' htab-mem with $variant, bench of $(basename "$vdir")"
	echo "bench -w$warmup -d$secs -p$prods --prod-affinity 0-$((prods - 1)), $rounds rounds alternated;"
	echo "medians of the rounds: per-producer op rate (k/s) and memory usage (MiB, the benchmark's"
	echo "cgroup, as upstream's reports it); x upstream: op rate over upstream's ('~': no significant difference, Welch's t-test)"
	/usr/bin/python3 "$table" table "$log"	# scipy: Debian's python3-scipy (make deps)
)
echo
echo "$summary"
if ((record)); then
	echo "$summary" >"$log.table"
	record=$("$LAB_ROOT/scripts/records.py" write --kind htab-mem --name htab-mem-vs-upstream --clock "$(vm_clock "$log.err")" \
		--what "6.1's htab-mem (pairing barrier and turn$([[ -z $vdir ]] || echo ", and the variant $variant")) against upstream's, every use case and flavour, alternated in one VM boot, $prods producers, $rounds rounds" \
		--command "$command" --variant "series=$(git -C "$TREE" rev-parse --short=12 "$rev")" "runs.log=$log" "table.txt=$log.table")
	note "recorded in $record (git add it)"
fi
