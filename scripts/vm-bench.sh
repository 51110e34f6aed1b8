#!/bin/bash
# Run a command in the VM from the directory of the bench built for REV (default: the tree's HEAD),
# which holds ./bench and ./benchs/, so that the selftests' run scripts work as written:
#   scripts/vm-bench.sh [--] command...
#   make vm-bench CMD='./benchs/run_bench_bpf_hashmap_full_update.sh' [REV=...]
# It builds what is missing (the kernel and bench of REV), then boots the kernel with scripts/vm.sh
# and runs `cd <bench directory> && command` there; it exits with the command's status. The VM
# knobs (CPUS, MAXCPUS, MEM, TIMEOUT, SILENCE, ICOUNT, ACCEL) are vm.sh's.
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

"$LAB_ROOT/scripts/tree.sh"
rev=$(tree_commit "${REV:-HEAD}")
bench_dir=$("$LAB_ROOT/scripts/bench-build.sh" "$rev" | tail -n1)
[[ -x $bench_dir/bench && -d $bench_dir/benchs ]] || die "no bench and benchs/ in '$bench_dir'"
kernel=$("$LAB_ROOT/scripts/kernel.sh" "$rev")
note "in the VM, from $bench_dir: $*"
"$LAB_ROOT/scripts/vm.sh" -k "$kernel" -- "cd $(printf %q "$bench_dir") && $*"
