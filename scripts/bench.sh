#!/bin/bash
# The main job: materialize the tree, build the kernel and bench of REV (default: the tree's HEAD),
# boot the kernel in the VM and run the benchmark suite there.
#   scripts/bench.sh [-H]     -H: run the host-safe benchmarks on the host kernel instead
# BENCHS='names or families' narrows the suite (config/benchmarks); CPUS, MAXCPUS, MEM, ICOUNT
# are passed to the VM. RECORD=1 also writes the run as a record, records/<base>/bench/
# (scripts/records.py: the suite's output, its lab-result lines included).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs
[[ $# == 0 || ($# == 1 && $1 == -H) ]] || die "$1: no such argument (usage: scripts/bench.sh [-H])"

on_host=0
[[ ${1:-} == -H ]] && on_host=1
start=$SECONDS
log=$(mktemp)
trap 'rm -f "$log" "$log".*' EXIT
"$LAB_ROOT/scripts/tree.sh"
rev=$(tree_commit "${REV:-HEAD}")
bench_dir=$("$LAB_ROOT/scripts/bench-build.sh" "$rev")
# shellcheck disable=SC2086 # BENCHS is a list of words
if ((on_host)); then
	suite=("$LAB_ROOT/scripts/suite.sh" -b "$bench_dir" -w host)
	# Tracepoint benchmarks look tracepoints up in tracefs. When the host has it mounted nowhere,
	# mount it in a private mount namespace that only the suite sees; else skip them, saying why.
	if [[ ! -e /sys/kernel/tracing/events && ! -e /sys/kernel/debug/tracing/events ]]; then
		if unshare -m --propagation private mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null; then
			note "tracefs is not mounted on the host: the suite runs in a private mount namespace with tracefs mounted there"
			suite=(unshare -m --propagation private bash -c 'mount -t tracefs tracefs /sys/kernel/tracing && exec "$@"' - "${suite[@]}")
		else
			note "tracefs is not mounted and cannot be mounted in a private mount namespace: skipping $TRACEFS_BENCHS"
			suite+=(-x "$TRACEFS_BENCHS")
		fi
	fi
	step "running the host-safe benchmarks on the host kernel ($(uname -r))" "${suite[@]}" ${BENCHS:-} | tee "$log"
	clock=native
else
	kernel=$("$LAB_ROOT/scripts/kernel.sh" "$rev")
	step "running the benchmark suite in the VM (${CPUS:-$VM_CPUS} CPUs, ${MAXCPUS:-${CPUS:-$VM_CPUS}} possible$([[ ${ICOUNT:-0} == 1 ]] && echo ', icount clock'))" \
		"$LAB_ROOT/scripts/vm.sh" -k "$kernel" -t "${TIMEOUT:-$BENCH_TIMEOUT}" -- \
		"$(guest_command "$LAB_ROOT/scripts/suite.sh" -b "$bench_dir" -w vm ${BENCHS:-})" 2> >(tee "$log.err" >&2) | tee "$log"
	clock=icount
	[[ ${ICOUNT:-0} == 1 ]] || clock=$(vm_clock "$log.err")
fi
if [[ ${RECORD:-0} == 1 ]]; then
	target=bench
	((on_host)) && target=host-bench
	command="make $target BASE=$BASE REV=${REV:-HEAD}"
	for knob in BENCHS CPUS MAXCPUS MEM ICOUNT ACCEL; do
		[[ -z ${!knob:-} ]] || command+=" $knob='${!knob}'"
	done
	record=$("$LAB_ROOT/scripts/records.py" write --kind bench --name "$target" --clock "$clock" --status 0 \
		--what "make $target: ${BENCHS:-every benchmark of the registry} on the kernel of ${rev:0:12}" \
		--command "$command" --variant "kernel=${rev:0:12}" "bench.log=$log")
	note "recorded in $record (git add it)"
fi
note "make bench: done in $((SECONDS - start))s"
