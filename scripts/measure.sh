#!/bin/bash
# The lab's one pipeline: a variant (or REV) -> its commit of the tree -> its kernel, built with a
# config, and its bench or selftests -> the VM -> a runner of scripts/guest/ -> the judgement of
# the kernel's splats -> one JSON line for the run, appended to a runs file. Its stages are the
# functions of scripts/lib/pipeline.sh, run here in order. make bench, make compare, make scaling,
# make check-debug, make nmi and scripts/compare/htab-mem.sh are its users (make regress calls the
# stages it needs around its resume loop); their tables are printed from the runs file.
#   scripts/measure.sh [options] [--] RUNNER [ARG...]     (the options: scripts/measure.sh -h)
# -n (or DRY_RUN=1) prints every stage's commands and runs nothing that builds or boots.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"

# runners: the runners of scripts/guest/, by name
runners() {
	local f names=()
	for f in "$LAB_ROOT"/scripts/guest/*.sh; do
		f=${f##*/}
		names+=("${f%.sh}")
	done
	echo "${names[*]}"
}

usage() {
	cat <<USAGE
usage: scripts/measure.sh [options] [--] RUNNER [ARG...]
Run scripts/guest/RUNNER.sh with ARG... once, in the VM on the kernel of the -K variant (or on the
host, -H), after building what is missing; each bench of -B reaches the runner as -b DIR, in order.
A VARIANT is base (the pristine base), series (the tree's HEAD), a variant of lab/variants/index
or a commit-ish of the tree.
  -K VARIANT    the kernel (default: REV, else the tree's HEAD)
  -C CONFIG     the kernel's config: bench (default), debug (KCSAN, lockdep) or regress (the
                BPF selftests' own); scripts/kernel.sh -c
  -B VARIANT    a bench to build and pass on (repeatable; default: the kernel's VARIANT; none: no
                bench)
  -S 'TARGET...'  the kernel commit's selftests to build for CONFIG (test_progs, test_maps, ...),
                reaching the runner as -s DIR; the target nmi_stackmap builds
                tools/testing/nmi_stackmap against them, reaching it as -N FILE
  -J JUDGE      the judgement of the kernel's splats: none (default) or splats (the guest prints
                its dmesg's splats; one that config/<base>/known-splats does not name fails the
                run: scripts/lib/splats.sh)
  -H            on the host's kernel: no VM, no kernel built
  -i            the VM's deterministic clock (icount, one online CPU)
  -c N, -p N    online and possible CPUs of the VM (default: CPUS, MAXCPUS; config/vm.conf)
  -m SIZE       the VM's memory (default: MEM; config/vm.conf)
  -t SECONDS    time limit of the VM (default: TIMEOUT; config/vm.conf)
  -o FILE       the runs file the run's JSON line is appended to (default: \$RESULTS/runs.jsonl)
  -l LOG        keep the runner's output in LOG, the kernel's messages in LOG.err (default: removed)
  -L KEY=VALUE  a label of the run in its JSON line (repeatable)
  -q            quiet: the output goes to LOG only (no progress notes of its own)
  -P            prepare: build what the run needs, run nothing; print the kernel's VARIANT=COMMIT
  -n            dry run (DRY_RUN=1): print each stage's commands, build and boot nothing
Runners: $(runners)
Exit status: the runner's (the VM's: vm.sh), 1 if it was 0 and the judgement found an unknown
splat; after the run's line is written.
USAGE
	exit 0
}

kernel_variant=${REV:-HEAD} kernel_set=0 config=bench benchs=() selftests='' judge=none on_host=0
icount=0 cpus='' possible='' mem='' timeout='' runs='' log='' labels=() quiet=0 prepare=0
while getopts :K:C:B:S:J:Hic:p:m:t:o:l:L:qPnh opt; do
	case $opt in
	K) kernel_variant=$OPTARG kernel_set=1 ;;
	C) config=$OPTARG ;;
	B) benchs+=("$OPTARG") ;;
	S) selftests=$OPTARG ;;
	J) judge=$OPTARG ;;
	H) on_host=1 ;;
	i) icount=1 ;;
	c) cpus=$OPTARG ;;
	p) possible=$OPTARG ;;
	m) mem=$OPTARG ;;
	t) timeout=$OPTARG ;;
	o) runs=$OPTARG ;;
	l) log=$OPTARG ;;
	L) labels+=("$OPTARG") ;;
	q) quiet=1 ;;
	P) prepare=1 ;;
	n) export DRY_RUN=1 ;;
	h) usage ;;
	*) bad_option "$opt" "$OPTARG" "scripts/measure.sh -h" ;;
	esac
done
shift $((OPTIND - 1))
check_knobs
(($#)) || die "no runner given (usage: scripts/measure.sh [options] [--] RUNNER [ARG...])"
runner=$1
shift
[[ $runner =~ ^[a-z][a-z0-9-]*$ && -x $LAB_ROOT/scripts/guest/$runner.sh ]] ||
	die "unknown runner '$runner' (one of: $(runners): scripts/guest/)"
[[ $config =~ ^(bench|debug|regress)$ ]] || die "-C $config: expected bench, debug or regress"
[[ $judge == none || $judge == splats ]] || die "-J $judge: expected none or splats"
read -ra selftests <<<"$selftests"
for t in "${selftests[@]}"; do
	[[ $t =~ ^[a-z][a-z0-9_-]*$ ]] || die "-S '$t': expected selftests targets (test_progs, test_maps, nmi_stackmap, ...)"
done
((${#benchs[@]})) || benchs=("$kernel_variant")
[[ ${benchs[*]} != none ]] || benchs=()
for v in "$kernel_variant" "${benchs[@]}"; do
	check_variant "$v"
done
for o in "c:$cpus" "p:$possible" "t:$timeout"; do
	[[ -z ${o#?:} ]] || positive "${o#?:}" || die "-${o%%:*} ${o#?:}: expected a positive number"
done
[[ -z $mem || $mem =~ ^[1-9][0-9]*[MG]$ ]] || die "-m $mem: expected a size like 512M or 2G"
for l in "${labels[@]}"; do
	[[ $l =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || die "-L '$l': expected KEY=VALUE (KEY: letters, digits, _)"
done
if ((on_host && (kernel_set || icount || ${#selftests[@]}))) || [[ $on_host == 1 && ( -n $cpus$possible$mem$timeout || $config != bench || $judge != none ) ]]; then
	die "-H runs on the host's kernel: -K, -C, -S, -J, -i, -c, -p, -m and -t are the VM's"
fi
[[ ${ICOUNT:-0} == 0 ]] || icount=1
[[ -z $log || -d $(dirname -- "$log") ]] || dry_run || die "-l $log: no directory $(dirname -- "$log")"
runs=${runs:-$RESULTS/runs.jsonl}
[[ -d $(dirname -- "$runs") || $runs == "$RESULTS/runs.jsonl" ]] || dry_run || die "-o $runs: no directory $(dirname -- "$runs")"

# The builds: the tree, each bench, the kernel, its selftests (and the NMI tool built against them).
stage_tree
bench_args=() bench_ids=() runner_args=() i=0 kernel_commit='' kernel='' selftests_dir='' nmi_stackmap=''
for v in "${benchs[@]}"; do
	i=$((i + 1))
	stage_commit "bench_commit_$i" "$v"
	commit_var=bench_commit_$i
	stage_bench "bench_$i" bench "${!commit_var}"
	bench_var=bench_$i
	bench_args+=(-b "${!bench_var}")
	bench_ids+=("$v=$(short_commit "${!commit_var}")")
done
if ((!on_host)); then
	stage_commit kernel_commit "$kernel_variant"
	stage_kernel kernel "$config" "$kernel_commit"
fi
targets=() tool=0
for t in "${selftests[@]}"; do
	if [[ $t == nmi_stackmap ]]; then
		tool=1
	else
		targets+=("$t")
	fi
done
((tool == 0)) || [[ " ${targets[*]} " == *" test_progs "* ]] || targets+=(test_progs)
if ((${#targets[@]})); then
	stage_bench selftests_dir "$config" "$kernel_commit" "${targets[@]}"
	runner_args+=(-s "$selftests_dir")
	if ((tool)); then
		stage_tool nmi_stackmap "$selftests_dir"
		runner_args+=(-N "$nmi_stackmap")
	fi
fi
if ((prepare)); then
	((on_host)) || dry_run || echo "$kernel_variant=$kernel_commit"
	exit 0
fi

# The run: the runner, in the VM (or on the host), its output kept in LOG.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=${log:-$tmp/run.log}
cmd=("$LAB_ROOT/scripts/guest/$runner.sh" "${bench_args[@]}" "${runner_args[@]}" "$@")
args=''
(($# == 0)) || args=$(guest_command "$@")
fields=("runner=$runner" "args=$args" "bench=${bench_ids[*]}" "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)")
[[ $log == "$tmp"/* ]] || fields+=("log=$log")
for l in "${labels[@]}"; do fields+=("label.$l"); done
if ((on_host)); then
	where="on the host's kernel ($(uname -r))"
	fields+=(where=host clock=native "kernel=$(uname -r)")
	# Tracepoint benchmarks look tracepoints up in tracefs. When the host has it mounted nowhere,
	# mount it in a private mount namespace that only the runner sees (else scripts/guest/suite.sh
	# skips them, saying why).
	if [[ ! -e /sys/kernel/tracing/events && ! -e /sys/kernel/debug/tracing/events ]] && ! dry_run; then
		if unshare -m --propagation private mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null; then
			note "tracefs is not mounted on the host: the runner runs in a private mount namespace with tracefs mounted there"
			cmd=(unshare -m --propagation private bash -c 'mount -t tracefs tracefs /sys/kernel/tracing && exec "$@"' - "${cmd[@]}")
		fi
	fi
else
	vm=("$LAB_ROOT/scripts/vm.sh" -k "$kernel")
	if ((icount)); then
		unset CPUS	# the icount clock runs one online CPU, whatever CPUS says for the wall clock
		vm+=(-i)
		cpus=1
	fi
	[[ -z $cpus ]] || vm+=(-c "$cpus")
	[[ -z $possible ]] || vm+=(-p "$possible")
	[[ -z $mem ]] || vm+=(-m "$mem")
	[[ -z $timeout ]] || vm+=(-t "$timeout")
	cpus=${cpus:-${CPUS:-$VM_CPUS}}
	possible=${possible:-${MAXCPUS:-$cpus}}
	where="in the VM ($config kernel of $kernel_variant $(short_commit "$kernel_commit"), $cpus CPUs, $possible possible)"
	((icount == 0)) || where="${where%)}, icount clock)"
	fields+=(where=vm "kernel=$kernel_variant=$(short_commit "$kernel_commit")" "cpus=$cpus" "possible=$possible")
	[[ $config == bench ]] || fields+=("config=$config")
	guest=$(guest_command "${cmd[@]}")
	# -J splats: the guest prints its dmesg's splats after the runner, keeping its status
	[[ $judge == none ]] || guest="$guest; rc=\$?; $(splats_guest_tail)"
	cmd=("${vm[@]}" -- "$guest")
fi

start=$SECONDS
stage_boot "$log" "$quiet" "$runner $where" "${cmd[@]}"
status=$boot_status
if ((!on_host)); then
	clock=icount
	if ((!icount)); then
		# shellcheck disable=SC2016 # a dry run's stand-in, as it would run
		if dry_run; then clock='$(vm_clock LOG.err)'; else clock=$(vm_clock "$log.err"); fi
	fi
	fields+=("clock=$clock")
fi
if [[ $judge == splats ]]; then
	stage_judge "$log"
	if ! dry_run; then
		note "$runner: $judged_splats splat(s): $((judged_splats - judged_unknown)) known (config/$BASE/known-splats), $judged_unknown unknown"
		((judged_unknown == 0 || status != 0)) || status=1
	fi
	fields+=("splats=$judged_splats" "unknown_splats=$judged_unknown")
fi
if dry_run; then
	# shellcheck disable=SC2016 # the stand-ins of the run's status and time
	fields+=('status=$status' 'seconds=$seconds')
else
	fields+=("status=$status" "seconds=$((SECONDS - start))")
fi
stage_runs_line "$runs" "$log" "${fields[@]}"
# the host's reading of the run (a benchmark without a result fails it); 0 in a dry run
exit "$runs_status"
