#!/bin/bash
# make compare: measure kernel variants side by side in the VM, interleaved, and tabulate.
#   scripts/compare/compare.sh [-n TRIALS] [-k "icount wall"] [-V "base series"] [-P "2 64"]
#                              [-d SECONDS] [-b REV] [-o NAME] [BENCHMARK_OR_FAMILY...]
#   -n  trials per variant and clock (default 5; the icount clock repeats exactly, 2 prove it)
#   -k  clocks: icount (deterministic, 1 online CPU) and/or wall (TCG wall clock, CPUS online)
#   -V  variants: base (the pristine base), series (the tree's HEAD), any commit-ish of the tree,
#       or a lab variant of lab/variants/index (measurement only; NAME-<base> first), made from
#       its parent by its patch (lib.sh variant_commit); scripts/measure.sh makes each
#   -P  possible CPUs (QEMU maxcpus) to run at
#   -b  the bench of this commit-ish of the tree (default HEAD), e.g. a reworked benchmark on
#       kernels that it does not change
#   -o  name of the results directory, $LAB_CACHE/<base>/results/compare/NAME/ (default: a time
#       stamp; scripts/lib/results.sh, with a `latest` link; the last line names it); RECORD=1 also
#       writes them as a record, records/<base>/compare/<date>-NAME/ (scripts/readout.py records; NAME
#       default: compare)
# DRY_RUN=1 (make -n compare) prints every trial's commands and the command README.md (and the
# record) will name, builds and boots nothing. With TREE= (scripts/tree.sh --help) that command
# starts with the tree and its revisions as commits (TREE=... BASE_REV=... SERIES_REV=...).
# The same bench binary (the tree's HEAD, or -b's) runs on every kernel, so only the kernel differs.
# Trials run A B A B ..., never A A B B, so that drift on this noisy machine hits all variants.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
own_group "$@"
check_knobs

trials=${TRIALS:-5} clocks=${CLOCKS:-"icount wall"} variants=${VARIANTS:-"base series"}
possible=${POSSIBLE:-2} duration=${DURATION:-$SUITE_DURATION} name='' bench_rev=HEAD
usage="usage: compare.sh [-n TRIALS] [-k CLOCKS] [-V VARIANTS] [-P POSSIBLE] [-d S] [-b REV] [-o NAME] [BENCH...]"
while getopts :n:k:V:P:d:b:o:h opt; do
	case $opt in
	n) trials=$OPTARG ;;
	k) clocks=$OPTARG ;;
	V) variants=$OPTARG ;;
	P) possible=$OPTARG ;;
	d) duration=$OPTARG ;;
	b) bench_rev=$OPTARG ;;
	o) name=$OPTARG ;;
	h) echo "$usage"; exit 0 ;;
	*) bad_option "$opt" "$OPTARG" "$usage" ;;
	esac
done
shift $((OPTIND - 1))
benchs=("$@")
((${#benchs[@]})) || read -ra benchs <<<"${BENCHS:-}"
positive "$trials" || die "trials must be a positive integer"
for c in $clocks; do
	[[ $c == icount || $c == wall ]] || die "unknown clock '$c' (icount or wall)"
done
record_name=${name:-compare}
out=$(results_dir compare "$name")
name=${out##*/}

for v in $variants; do
	check_variant "$v"
done
stage_tree	# once: each measure.sh below finds it done
# Every kernel and the bench first, so that no build runs between trials; the trials then name
# each kernel by its commit (scripts/measure.sh -P prints the kernel's VARIANT=COMMIT), so that the
# variants are those of the start even if the tree changes meanwhile.
declare -A commit
for v in $variants; do
	if dry_run; then
		"$LAB_ROOT/scripts/measure.sh" -P -K "$v" -B HEAD suite
		commit[$v]=$v
		continue
	fi
	kernel=$("$LAB_ROOT/scripts/measure.sh" -P -K "$v" -B HEAD suite)
	commit[$v]=${kernel##*=}
done
bench=$bench_rev
dry_run || bench=$(tree_commit "$bench_rev")

runs=$out/runs.jsonl
dry_run || : >"$runs"
failed=0
for clock in $clocks; do
	icount=()
	[[ $clock == icount ]] && icount=(-i)
	for p in $possible; do
		for ((t = 1; t <= trials; t++)); do
			for v in $variants; do
				note "trial $t/$trials: $v, $clock clock, $p possible CPUs"
				log=$out/$clock-$v-p$p-t$t.log
				if ! "$LAB_ROOT/scripts/measure.sh" -q "${icount[@]}" -K "${commit[$v]}" -B "$bench" -p "$p" -t 1800 -l "$log" -o "$runs" \
					-L "clock=$clock" -L "variant=$v" -L "trial=$t" -L "possible=$p" -- \
					suite -w vm -d "$duration" "${benchs[@]}"; then
					note "trial failed, see $log (the kernel's messages: $log.err)"
					tail -n 5 "$log" >&2
					failed=$((failed + 1))
				fi
			done
		done
	done
done
# The command of README.md and of the record: the VM knobs that were set go into it too (a 255-CPU
# boot needs its SILENCE to be rerun), and with TREE= the tree and its revisions as commits
# (own_tree_knobs), without which it would name the lab's tree.
knobs=''
for k in CPUS MAXCPUS MEM TIMEOUT SILENCE ACCEL; do
	[[ -z ${!k:-} ]] || knobs+="$k=${!k} "
done
command="${knobs}$(own_tree_knobs)BASE=$BASE scripts/compare/compare.sh -n $trials -k '$clocks' -V '$variants' -P '$possible' -d $duration"
[[ $bench_rev == HEAD ]] || command+=" -b $bench_rev"
command+=" ${benchs[*]}"
# the trials as CSV rows, from the runs' lines (scripts/readout.py benchout)
csv=$out/trials.csv
if dry_run; then
	echo "+ $(shown python3 "$LAB_ROOT/scripts/readout.py" benchout trials-csv "$runs") > $(shown "$csv")"
	note "command (README.md's, the record's): $command"
	echo "+ $(shown /usr/bin/python3 "$LAB_ROOT/scripts/readout.py" stats "$csv" "$out") >> $(shown "$out/README.md")"
	lab_record --kind compare --name "$record_name" --command "$command" --what "make compare" "$csv" "table.md=$out/README.md"
	results_done "$out"
	exit 0
fi
python3 "$LAB_ROOT/scripts/readout.py" benchout trials-csv "$runs" >"$csv"
{
	echo "# make compare: $name"
	echo
	echo "Command: \`$command\`"
	echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "Machine: $(nproc) host CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), QEMU $(qemu-system-x86_64 --version | awk 'NR==1 { print $4 }') TCG, guest: ${CPUS:-$VM_CPUS} online CPUs (wall), 1 (icount)"
	echo "Variants: $(for v in $variants; do printf '%s=%s ' "$v" "${commit[$v]:0:12}"; done)"
	echo "bench: $(git -C "$TREE" log -1 --format='%h %s' "$bench"), -w$SUITE_WARMUP -d$duration"
	/usr/bin/python3 "$LAB_ROOT/scripts/readout.py" stats "$csv" "$out"
} >"$out/README.md"
cat "$out/README.md"
if [[ ${RECORD:-0} == 1 ]]; then
	# the clocks as records name them: icount, and the wall clock of the accelerator the VMs ran under
	clock=$(python3 "$LAB_ROOT/scripts/readout.py" benchout clock "$runs")
	opts=(--clock "$clock" --what "make compare: ${benchs[*]:-every benchmark}, variants $variants, clocks $clocks, $possible possible CPUs, $trials trials")
	for v in $variants; do opts+=(--variant "$v=${commit[$v]:0:12}"); done
	mapfile -t plots < <(compgen -G "$out/*.png" || true)
	lab_record --kind compare --name "$record_name" --command "$command" "${opts[@]}" \
		"$csv" "table.md=$out/README.md" "${plots[@]}"
fi
results_done "$out"
exit $((failed > 0))
