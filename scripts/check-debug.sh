#!/bin/bash
# make check-debug: boot the debug kernel (bench.config + debug.config: KCSAN, lockdep,
# atomic-sleep checks) of REV (default HEAD), run short versions of the benchmarks the series
# changes and the selftests it touches (scripts/guest/debug-run.sh), and fail on any KCSAN,
# lockdep, BUG or WARN splat that config/<base>/known-splats does not name as the base's. The
# builds, the boot and the judgement are scripts/measure.sh's (-C debug -J splats).
# Slow (a second kernel build and test_progs), so it is not part of `make check`. Its console log
# lands in $LAB_CACHE/<base>/results/check-debug/<date>/ (scripts/lib/results.sh, with a `latest`
# link); the last line names it. RECORD=1 also writes the run as a record,
# records/<base>/check-debug/ (scripts/readout.py records: its log). DRY_RUN=1 (make -n check-debug)
# prints the commands, builds and boots nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs
(($# == 0)) || die "$1: no arguments taken (usage: [REV=commit-ish] [DRY_RUN=1] scripts/check-debug.sh)"

start=$SECONDS
rev=${REV:-HEAD}
out=$(results_dir check-debug)
log=$out/console.log
rc=0
"$LAB_ROOT/scripts/measure.sh" -K "$rev" -C debug -S 'test_progs test_maps nmi_stackmap' -J splats \
	-c "$VM_CPUS" -m "${MEM:-$DEBUG_MEM}" -t "${TIMEOUT:-$DEBUG_TIMEOUT}" -l "$log" -o "$out/runs.jsonl" \
	debug-run || rc=$?
dry_run || note "check-debug: exit status $rc, $((SECONDS - start))s (log: $log, the kernel's messages: $log.err)"
[[ -s $out/runs.jsonl ]] || dry_run || die "check-debug failed before its run (exit status $rc)"
commit=$rev
dry_run || commit=$(python3 "$LAB_ROOT/scripts/readout.py" benchout field kernel "$out/runs.jsonl")
lab_record --kind check-debug --name check-debug --clock none --status "$rc" \
	--what "make check-debug on $BASE: the KCSAN and lockdep kernel of ${commit#*=} runs scripts/guest/debug-run.sh" \
	--command "make check-debug BASE=$BASE REV=$rev" --variant "kernel=${commit#*=}" "console.log=$log" "kernel.log=$log.err"
((rc == 0)) || die "check-debug failed; its log: $log"
results_done "$out"
