#!/bin/bash
# The main job: materialize the tree, build the kernel and bench of REV (default: the tree's HEAD),
# boot the kernel in the VM and run the benchmark suite there (scripts/measure.sh, runner
# scripts/guest/suite.sh), then print its summary table (scripts/readout.py benchout report).
#   scripts/bench.sh [-H]     -H: run the host-safe benchmarks on the host kernel instead
# BENCHS='names or families' narrows the suite (config/benchmarks); CPUS, MAXCPUS, MEM, ICOUNT
# are passed to the VM. The run lands in $LAB_CACHE/<base>/results/bench/<date>/ (host-bench/ for
# -H; scripts/lib/results.sh): bench.log (the suite's output and the table), runs.jsonl and
# table.txt; the last line names it. RECORD=1 also writes the run as a record,
# records/<base>/bench/ (scripts/readout.py records: the suite's output, bench's runs between lab-raw:
# markers, and the summary table). DRY_RUN=1 (make -n bench) prints the commands, builds and boots
# nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs
[[ $# == 0 || ($# == 1 && $1 == -H) ]] || die "$1: no such argument (usage: scripts/bench.sh [-H])"

on_host=0 where=vm target=bench
[[ ${1:-} == -H ]] && on_host=1 where=host target=host-bench
start=$SECONDS
out=$(results_dir "$target")
log=$out/bench.log runs=$out/runs.jsonl
warmup=${WARMUP:-$SUITE_WARMUP} duration=${DURATION:-$SUITE_DURATION}
measure=("$LAB_ROOT/scripts/measure.sh" -l "$log" -o "$runs" -L "warmup=$warmup" -L "duration=$duration")
if ((on_host)); then
	measure+=(-H)
else
	measure+=(-t "${TIMEOUT:-$BENCH_TIMEOUT}")
fi
# shellcheck disable=SC2086 # BENCHS is a list of words
"${measure[@]}" suite -w "$where" -W "$warmup" -d "$duration" ${BENCHS:-} && status=0 || status=$?
# One reading of the run's line (scripts/readout.py benchout report): the summary table into table.txt,
# and the bench's commit (12 digits) and the clock for the record. The table is shown and ends the
# record's bench.log, as the suite's output did when the guest printed it.
if dry_run; then
	echo "+ report=\$($(shown python3 "$LAB_ROOT/scripts/readout.py" benchout report "$runs" "$out/table.txt"))"
	echo "+ tee -a $(shown "$log") < $(shown "$out/table.txt")"
	# shellcheck disable=SC2016 # a dry run's stand-ins
	rev='$kernel_commit' clock='$clock'
else
	[[ -s $runs ]] || { results_done "$out"; exit "$status"; }
	report=$(python3 "$LAB_ROOT/scripts/readout.py" benchout report "$runs" "$out/table.txt")
	tee -a "$log" <"$out/table.txt"
	((status == 0)) || { results_done "$out"; exit "$status"; }
	{ read -r rev; read -r clock; } <<<"$report"
fi
command="make $target BASE=$BASE REV=${REV:-HEAD}"
for knob in BENCHS CPUS MAXCPUS MEM ICOUNT ACCEL LLVM; do
	[[ -z ${!knob:-} ]] || command+=" $knob='${!knob}'"
done
lab_record --kind bench --name "$target" \
	--clock "$clock" --status 0 \
	--what "make $target: ${BENCHS:-every benchmark of the registry} on the kernel of $(short_commit "$rev")${KERNEL_TOOLCHAIN:+, built with $KERNEL_TOOLCHAIN (LLVM=1)}" \
	--command "$command" --variant "kernel=$(short_commit "$rev")" --param "toolchain=${KERNEL_TOOLCHAIN:-gcc}" "bench.log=$log"
dry_run || note "make $target: done in $((SECONDS - start))s"
results_done "$out"
