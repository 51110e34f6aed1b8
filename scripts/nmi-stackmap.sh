#!/bin/bash
# bpf_get_stackid() on a full stack map from NMI context, on the base and on the series, in the VM.
# The guest has no PMU, so no perf_event program runs in NMI: tools/testing/nmi_stackmap takes its
# NMIs from the all-CPU backtrace (sysrq 'l', an NMI IPI), whose nmi_handler tracepoint runs a BPF
# program that pops the map's freelist, while a task on the NMI's CPU pops and pushes it. Fails if
# a kernel shows a splat that config/<base>/known-splats does not name, is tainted or turns lockdep
# off during the run, or no pop in NMI got -ENOMEM (no node). Each kernel runs through
# scripts/measure.sh (-C CONFIG -S nmi_stackmap -J splats, runner scripts/guest/nmi.sh); the
# table of each kernel's counts is scripts/readout.py nmi-results's. The VM logs, the runs file and the
# table land in $LAB_CACHE/<base>/results/nmi-stackmap-<config>/<date>/ (scripts/lib/results.sh,
# with a `latest` link); the last line names it. RECORD=1 also writes them as a record.
#   scripts/nmi-stackmap.sh [-c regress|debug] [-d SECONDS] [-R] [REV...]
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs

usage() {
	cat <<'USAGE'
usage: scripts/nmi-stackmap.sh [-c regress|debug] [-d SECONDS] [-R] [REV...]
    -c CONFIG  the kernels: regress (the selftests' config, lockdep; default) or debug (check-debug's:
               KCSAN and lockdep)
    -d SECONDS how long each kernel runs the NMIs, 1 to 3600 (default 10)
    -R         the same as RECORD=1 (kept for the commands of older records): both kernels' logs
               and their counts as a record, records/<base>/nmi/ (scripts/readout.py records)
    REV...     the commits to run (default: lab-base and HEAD, the base and the series)
DRY_RUN=1 prints the commands, builds and boots nothing.
USAGE
	exit 0
}
config=regress seconds=10
while getopts :c:d:Rh opt; do
	case $opt in
	c) config=$OPTARG ;;
	d) seconds=$OPTARG ;;
	R) export RECORD=1 ;;
	h) usage ;;
	*) bad_option "$opt" "$OPTARG" "scripts/nmi-stackmap.sh -h" ;;
	esac
done
shift $((OPTIND - 1))
[[ $config == regress || $config == debug ]] || die "-c $config: expected regress or debug"
if ! positive "$seconds" 3600; then
	die "-d $seconds: expected whole seconds, 1 to 3600"
fi
# name=rev: a kernel's name in the table and the record, and its commit
if (($#)); then
	revs=()
	for rev; do
		name=${rev,,}
		name=${name//[^a-z0-9._-]/-}
		[[ " ${revs[*]%%=*} " != *" $name "* ]] || die "$rev: named $name in the table, as another REV is"
		revs+=("$name=$rev")
	done
else
	revs=("base=$BASE_TAG" "series=HEAD")
fi

for named in "${revs[@]}"; do
	check_variant "${named#*=}"
done
stage_tree	# once: each measure.sh below finds it done
out=$(results_dir "nmi-stackmap-$config")
runs=$out/runs.jsonl
counted=() variants=() files=("table.md=$out/table.md") status=0
for named in "${revs[@]}"; do
	name=${named%%=*}
	log=$out/$name.log
	dry_run || note "$name, the $config kernel of ${named#*=}: $seconds s of NMIs"
	rc=0
	"$LAB_ROOT/scripts/measure.sh" -q -K "${named#*=}" -C "$config" -B none -S nmi_stackmap -J splats \
		-c "$VM_CPUS" -m "${MEM:-$DEBUG_MEM}" -t "${TIMEOUT:-$((seconds + 600))}" -l "$log" -o "$runs" \
		-L "name=$name" -- nmi "$seconds" || rc=$?
	((rc == 0)) || status=1
	dry_run && continue
	[[ -s $runs ]] || die "nmi-stackmap: $name failed before its run (exit status $rc)"
	# the run's line: its kernel (VARIANT=COMMIT) and its splats, all and unknown
	fields=$(for f in kernel splats unknown_splats; do
		python3 "$LAB_ROOT/scripts/readout.py" benchout field "$f" "$runs"; done | xargs)
	read -r kernel splats unknown <<<"$fields"
	note "$name: exit status $rc, $splats splat(s), $unknown unknown"
	counted+=("$log=$splats,$unknown") variants+=(--variant "$name=${kernel#*=}")
	files+=("$name.log=$log" "$name.log.err=$log.err")
done
if dry_run; then
	echo "+ $(shown scripts/readout.py nmi-results "$out/NAME.log=SPLATS,UNKNOWN" ...) > $(shown "$out/table.md")"
else
	"$LAB_ROOT/scripts/readout.py" nmi-results "${counted[@]}" | tee "$out/table.md" || status=1
fi
if dry_run || [[ -s $out/table.md ]]; then
	lab_record --kind nmi --name "nmi-stackmap-$config" --clock wall-tcg --status "$status" \
		--what "bpf_get_stackid() on a full stack map in NMI (sysrq-l NMI IPIs), $config kernels, $seconds s each" \
		--command "BASE=$BASE RECORD=1 scripts/nmi-stackmap.sh -c $config -d $seconds $*" "${variants[@]}" "${files[@]}"
fi
((status == 0)) || die "nmi-stackmap failed; the VM logs: $out/"
results_done "$out"
