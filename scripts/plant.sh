#!/bin/bash
# Run a selftest or a command on the series with a plant applied: the kernel of REV (default: the
# tree's HEAD) with lab/plants/NAME.patch on top (lib.sh patched_commit: the tag
# lab-patched/NAME-<hash>, reused), built with the config -c names, and the selftests (test_progs,
# test_maps) of the same commit; then, in the VM, `cd <their directory> && command`. Exits with the
# command's status. NAME "none" runs the series as it is, for the run to compare with. Without a
# command it only builds, and prints the planted commit and its kernel.
#   scripts/plant.sh [-c bench|debug|regress] [-r REV] [-t SECONDS] [-S] NAME [--] [command...]
#   scripts/plant.sh -c debug freelist-v4-7.3-clear-without-recheck ./test_progs -t htab_freelist
# The VM knobs (CPUS, MAXCPUS, MEM, SILENCE, ICOUNT, ACCEL) are vm.sh's; -t is its time limit.
# DRY_RUN=1 prints the commands, builds and boots nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"

usage() {
	cat <<'USAGE'
usage: scripts/plant.sh [-c bench|debug|regress] [-r REV] [-t SECONDS] [-S] NAME [--] [command...]
  NAME     a plant, lab/plants/NAME.patch (a git am patch or a plain diff), or none: the series as it is
  -c       the kernel's config (default debug: KCSAN and lockdep, as make check-debug's)
  -r       the commit of the tree the plant goes on (default HEAD, the series)
  -t       the VM's time limit in seconds (default TIMEOUT, else make bench's: config/vm.conf)
  -S       no selftests: nothing but the kernel is built, the command runs from /
  command  run as root in the VM from the selftests' directory (./test_progs, ./test_maps)
USAGE
	exit 0
}

config=debug rev=${REV:-HEAD} timeout=${TIMEOUT:-$BENCH_TIMEOUT} selftests=1
while getopts :c:r:t:Sh opt; do
	case $opt in
	c) config=$OPTARG ;;
	r) rev=$OPTARG ;;
	t) timeout=$OPTARG ;;
	S) selftests=0 ;;
	h) usage ;;
	*) bad_option "$opt" "$OPTARG" "scripts/plant.sh -h" ;;
	esac
done
shift $((OPTIND - 1))
check_knobs
[[ $config =~ ^(bench|debug|regress)$ ]] || die "-c $config: expected bench, debug or regress"
positive "$timeout" || die "-t $timeout: expected a number of seconds"
(($#)) || die "no plant named (usage: scripts/plant.sh [-c CONFIG] [-r REV] NAME [command...]; plants: lab/plants/)"
name=$1
shift
[[ ${1:-} != -- ]] || shift
plant=$LAB_ROOT/lab/plants/$name.patch
[[ $name == none || ($name =~ ^[A-Za-z0-9._-]+$ && -f $plant) ]] ||
	die "no plant '$name': expected none or the name of a lab/plants/*.patch"

# The stages of the pipeline (scripts/lib/pipeline.sh; DRY_RUN=1 prints their commands)
commit='' kernel='' tests_dir=''
stage_tree
stage_out commit tree_commit "$rev"
if [[ $name != none ]]; then
	stage_out commit patched_commit "$commit" "$plant" || die "plant $name does not apply on $rev"
fi
stage_kernel kernel "$config" "$commit"
if (($# == 0)); then
	dry_run || echo "$commit $kernel"
	exit 0
fi
tests_dir=/
((selftests == 0)) || stage_bench tests_dir "$config" "$commit" test_progs test_maps
tests_dir=$(tail -n1 <<<"$tests_dir")
dry_run || note "plant $name: the $config kernel of ${commit:0:12}; in the VM, from $tests_dir: $*"
stage_run "$LAB_ROOT/scripts/vm.sh" -k "$kernel" -t "$timeout" -- "cd $(printf %q "$tests_dir") && $*"
