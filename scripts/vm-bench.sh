#!/bin/bash
# Run a command in the VM from the directory of the bench built for REV (default: the tree's HEAD),
# which holds ./bench and ./benchs/, so that the selftests' run scripts work as written:
#   scripts/vm-bench.sh [--] command...
#   make vm-bench CMD='./benchs/run_bench_bpf_hashmap_full_update.sh' [REV=...]
# It builds what is missing (the kernel and bench of REV), then boots the kernel with scripts/vm.sh
# and runs `cd <bench directory> && command` there; it exits with the command's status. The VM
# knobs (CPUS, MAXCPUS, MEM, TIMEOUT, SILENCE, ICOUNT, ACCEL) are vm.sh's. DRY_RUN=1 prints the
# commands, builds and boots nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs

usage="usage: scripts/vm-bench.sh [--] command...   (make vm-bench CMD='./benchs/run_bench_NAME.sh' [REV=...])"
case ${1:-} in
-h | --help) echo "$usage"; exit 0 ;;
--) shift ;;
-*) die "$1: no such option ($usage)" ;;
esac
(($#)) || die "no command to run ($usage)"

# The stages of the pipeline (scripts/lib/pipeline.sh; DRY_RUN=1 prints their commands)
rev='' bench_dir='' kernel=''
stage_tree
stage_out rev tree_commit "${REV:-HEAD}"
stage_bench bench_dir bench "$rev"
bench_dir=$(tail -n1 <<<"$bench_dir")
dry_run || [[ -x $bench_dir/bench && -d $bench_dir/benchs ]] || die "no bench and benchs/ in '$bench_dir'"
stage_kernel kernel bench "$rev"
dry_run || note "in the VM, from $bench_dir: $*"
stage_run "$LAB_ROOT/scripts/vm.sh" -k "$kernel" -- "cd $(printf %q "$bench_dir") && $*"
