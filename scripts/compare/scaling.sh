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
# then a table of the mean rates and p2/p1, and keeps the log in $RESULTS/scaling-{host,vm}.log;
# RECORD=1 also writes it as a record, records/<base>/scaling/ (scripts/records.py).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
own_group "$@"
check_knobs

usage="usage: scaling.sh [-H] [-n ROUNDS] [-d SECONDS] [-A REV] [-B REV] [BENCH...]"

# The runner: scaling.sh --run ROUNDS SECONDS DIR_A DIR_B BENCH..., on the host or in the VM.
# One line per run: "scaling: BENCH A|B pN MEAN STDDEV" or "scaling: BENCH A|B pN fail WHY".
if [[ ${1:-} == --run ]]; then
	rounds=$2 secs=$3 dir_a=$4 dir_b=$5
	shift 5
	for ((r = 1; r <= rounds; r++)); do
		for b in "$@"; do
			for p in 1 2; do
				# alternate which harness goes first, so neither always runs second
				order="A B"
				((r % 2)) || order="B A"
				for h in $order; do
					dir=$dir_a
					[[ $h == B ]] && dir=$dir_b
					out=$(cd "$dir" && timeout -k 5 $((secs + 60)) ./bench -w1 -d"$secs" -p"$p" "$b" 2>&1) || true
					# the hits rate of the Summary line (scripts/benchout.py), in M/s
					rate=$(python3 "$LAB_ROOT/scripts/benchout.py" rate -m hits <<<"$out" 2>&1) || rate="fail $rate"
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
	exit 0
fi

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
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "-n: expected a number of rounds, got '$rounds'"
[[ $secs =~ ^[1-9][0-9]*$ ]] || die "-d: expected a number of seconds, got '$secs'"
where=vm
((on_host)) && where=host
wanted=("${@:-trigger}")
unknown=$(registry_unknown "${wanted[@]}" | head -n1)
[[ -z $unknown ]] || die "no benchmark or family '$unknown' in config/benchmarks"
mapfile -t benchs < <(registry_select "$where" "${wanted[@]}" | awk '{ print $2 }')
((${#benchs[@]})) || die "none of '${*:-trigger}' can run on the $where"
for b in "${benchs[@]}"; do
	[[ $b == trig-* ]] || die "'$b' is not a trigger benchmark (trig-*): only those count hits per producer"
done

"$LAB_ROOT/scripts/tree.sh"
commit_a=$(tree_commit "$rev_a")
commit_b=$(tree_commit "$rev_b")
dir_a=$("$LAB_ROOT/scripts/bench-build.sh" "$commit_a")
dir_b=$("$LAB_ROOT/scripts/bench-build.sh" "$commit_b")
mkdir -p "$RESULTS"
log=$RESULTS/scaling-$where.log
runner=("$LAB_ROOT/scripts/compare/scaling.sh" --run "$rounds" "$secs" "$dir_a" "$dir_b" "${benchs[@]}")
runs=$((rounds * ${#benchs[@]} * 4))
what="$runs runs of $((secs + 1))s: ${benchs[*]}, -p1 and -p2"
if ((on_host)); then
	step "on the host kernel ($(uname -r)): $what" "${runner[@]}" | tee "$log"
else
	kernel=$("$LAB_ROOT/scripts/kernel.sh" "$commit_b")
	step "in the VM (2 vCPUs, kernel of $rev_b): $what" \
		"$LAB_ROOT/scripts/vm.sh" -k "$kernel" -c 2 -t $((runs * (secs + 4) + 120)) -- "$(guest_command "${runner[@]}")" \
		2> >(tee "$log.err" >&2) | tee "$log"
fi

echo
echo "A = $rev_a ($(git -C "$TREE" log -1 --format='%h %s' "$commit_a"))"
echo "B = $rev_b ($(git -C "$TREE" log -1 --format='%h %s' "$commit_b"))"
echo "Wall clock, $where, -w1 -d$secs, $rounds rounds alternated; mean of the rounds' Summary rates (M/s)"
echo "and p2/p1 of those means, with the lowest and highest per-round ratio."
tr -d '\r' <"$log" | awk '
$1 == "scaling:" {
	key = $2 " " $3
	if (!(key in seen)) { seen[key] = 1; keys[++n] = key }
	if ($5 == "fail") { fail[key]++; next }
	round = ++cnt[key, $4]
	rate[key, $4, round] = $5
	sum[key, $4] += $5
}
END {
	printf "%-18s %-3s %10s %10s %7s %15s\n", "benchmark", "", "p1", "p2", "p2/p1", "per round"
	for (i = 1; i <= n; i++) {
		k = keys[i]
		if (fail[k] || !cnt[k, "p1"] || !cnt[k, "p2"] || sum[k, "p1"] <= 0) {
			printf "%-18s %-3s %10s (%d of %d runs)\n", substr(k, 1, index(k, " ") - 1),
			       substr(k, index(k, " ") + 1), "fails", fail[k], fail[k] + cnt[k, "p1"] + cnt[k, "p2"]
			continue
		}
		p1 = sum[k, "p1"] / cnt[k, "p1"]; p2 = sum[k, "p2"] / cnt[k, "p2"]
		lo = 1e9; hi = 0
		for (r = 1; r <= cnt[k, "p1"] && r <= cnt[k, "p2"]; r++) {
			q = rate[k, "p1", r] > 0 ? rate[k, "p2", r] / rate[k, "p1", r] : 0
			if (q < lo) lo = q
			if (q > hi) hi = q
		}
		printf "%-18s %-3s %10.3f %10.3f %7.2f %7.2f..%-6.2f\n", substr(k, 1, index(k, " ") - 1),
		       substr(k, index(k, " ") + 1), p1, p2, p2 / p1, lo, hi
	}
}'
if [[ ${RECORD:-0} == 1 ]]; then
	clock=native
	((on_host)) || clock=$(vm_clock "$log.err")
	record=$("$LAB_ROOT/scripts/records.py" write --kind scaling --name "scaling-$where" --clock "$clock" \
		--what "${benchs[*]} at -p1 and -p2, bench A ($rev_a) against bench B ($rev_b), on the $where, $rounds rounds" \
		--command "$command" --variant "A=${commit_a:0:12}" --variant "B=${commit_b:0:12}" "scaling.log=$log")
	note "recorded in $record (git add it)"
fi
