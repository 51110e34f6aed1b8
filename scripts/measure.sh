#!/bin/bash
# The lab's one measurement pipeline: a variant (or REV) -> its commit of the tree -> its kernel and
# bench -> the VM -> a runner of scripts/guest/ -> one JSON line for the run, appended to a runs
# file. make bench, make compare, make scaling and scripts/compare/htab-mem.sh are its users; their
# tables are printed from the runs file (scripts/benchout.py summary, trials-csv, scaling).
#   scripts/measure.sh [options] [--] RUNNER [ARG...]     (the options: scripts/measure.sh -h)
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
  -B VARIANT    a bench to build and pass on (repeatable; default: the kernel's VARIANT)
  -H            on the host's kernel: no VM, no kernel built
  -i            the VM's deterministic clock (icount, one online CPU)
  -c N, -p N    online and possible CPUs of the VM (default: CPUS, MAXCPUS; config/vm.conf)
  -t SECONDS    time limit of the VM (default: TIMEOUT; config/vm.conf)
  -o FILE       the runs file the run's JSON line is appended to (default: \$RESULTS/runs.jsonl)
  -l LOG        keep the runner's output in LOG, the kernel's messages in LOG.err (default: removed)
  -L KEY=VALUE  a label of the run in its JSON line (repeatable)
  -q            quiet: the output goes to LOG only (no progress notes of its own)
  -n            build what the run needs, run nothing; print the kernel's VARIANT=COMMIT
Runners: $(runners)
Exit status: the runner's (the VM's: vm.sh), after the run's line is written.
USAGE
	exit 0
}

kernel_variant=${REV:-HEAD} kernel_set=0 benchs=() on_host=0 icount=0 cpus='' possible='' timeout=''
runs='' log='' labels=() quiet=0 build_only=0 number='^[1-9][0-9]*$'
while getopts :K:B:Hic:p:t:o:l:L:qnh opt; do
	case $opt in
	K) kernel_variant=$OPTARG kernel_set=1 ;;
	B) benchs+=("$OPTARG") ;;
	H) on_host=1 ;;
	i) icount=1 ;;
	c) cpus=$OPTARG ;;
	p) possible=$OPTARG ;;
	t) timeout=$OPTARG ;;
	o) runs=$OPTARG ;;
	l) log=$OPTARG ;;
	L) labels+=("$OPTARG") ;;
	q) quiet=1 ;;
	n) build_only=1 ;;
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
for v in "$kernel_variant" "${benchs[@]}"; do
	[[ -n $v ]] || die "an empty VARIANT (-K, -B, REV): expected base, series, a variant or a commit-ish"
done
for o in "c:$cpus" "p:$possible" "t:$timeout"; do
	[[ -z ${o#?:} || ${o#?:} =~ $number ]] || die "-${o%%:*} ${o#?:}: expected a positive number"
done
for l in "${labels[@]}"; do
	[[ $l =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || die "-L '$l': expected KEY=VALUE (KEY: letters, digits, _)"
done
if ((on_host && (kernel_set || icount))) || [[ $on_host == 1 && -n $cpus$possible$timeout ]]; then
	die "-H runs on the host's kernel: -K, -i, -c, -p and -t are the VM's"
fi
[[ ${ICOUNT:-0} == 0 ]] || icount=1
((${#benchs[@]})) || benchs=("$kernel_variant")
[[ -z $log || -d $(dirname -- "$log") ]] || die "-l $log: no directory $(dirname -- "$log")"
runs=${runs:-$RESULTS/runs.jsonl}
[[ -d $(dirname -- "$runs") || $runs == "$RESULTS/runs.jsonl" ]] || die "-o $runs: no directory $(dirname -- "$runs")"

# commit_of VARIANT: its commit of the tree
commit_of() {
	case $1 in
	base) tree_commit "$BASE_TAG" ;;
	series) tree_commit HEAD ;;
	*)
		if variant_index | awk -v n="$1" -v b="$1-$BASE" '$1 == n || $1 == b { f = 1 } END { exit !f }'; then
			variant_commit "$1"
		else
			git -C "$TREE" rev-parse --verify -q "$1^{commit}" ||
				die "unknown variant '$1' (base, series, a commit of the tree, or a variant of lab/variants/index)"
		fi
		;;
	esac
}

"$LAB_ROOT/scripts/tree.sh"
bench_args=() bench_ids=()
for v in "${benchs[@]}"; do
	commit=$(commit_of "$v")
	bench_args+=(-b "$("$LAB_ROOT/scripts/bench-build.sh" "$commit")")
	bench_ids+=("$v=${commit:0:12}")
done
if ((!on_host)); then
	kernel_commit=$(commit_of "$kernel_variant")
	kernel=$("$LAB_ROOT/scripts/kernel.sh" "$kernel_commit")
fi
if ((build_only)); then
	((on_host)) || echo "$kernel_variant=$kernel_commit"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=${log:-$tmp/run.log}
cmd=("$LAB_ROOT/scripts/guest/$runner.sh" "${bench_args[@]}" "$@")
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
	if [[ ! -e /sys/kernel/tracing/events && ! -e /sys/kernel/debug/tracing/events ]]; then
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
	[[ -z $timeout ]] || vm+=(-t "$timeout")
	cpus=${cpus:-${CPUS:-$VM_CPUS}}
	possible=${possible:-${MAXCPUS:-$cpus}}
	where="in the VM (kernel of $kernel_variant ${kernel_commit:0:12}, $cpus CPUs, $possible possible)"
	((icount == 0)) || where="${where%)}, icount clock)"
	fields+=(where=vm "kernel=$kernel_variant=${kernel_commit:0:12}" "cpus=$cpus" "possible=$possible")
	cmd=("${vm[@]}" -- "$(guest_command "${cmd[@]}")")
fi

start=$SECONDS status=0
: >"$log.err"
if ((quiet)); then
	"${cmd[@]}" >"$log" 2>"$log.err" || status=$?
elif ((on_host)); then
	step "$runner $where" "${cmd[@]}" | tee "$log" || status=$?
else
	step "$runner $where" "${cmd[@]}" 2> >(tee "$log.err" >&2) | tee "$log" || status=$?
fi
if ((!on_host)); then
	clock=icount
	((icount)) || clock=$(vm_clock "$log.err")
	fields+=("clock=$clock")
fi
fields+=("status=$status" "seconds=$((SECONDS - start))")
mkdir -p "$(dirname -- "$runs")"
json=$(python3 "$LAB_ROOT/scripts/benchout.py" run "$log" "${fields[@]}") ||
	die "the results of the run cannot be read (its output: $log)"
echo "$json" >>"$runs"
status=$(python3 "$LAB_ROOT/scripts/benchout.py" field status "$runs")	# the host's reading of the run
exit "$status"
