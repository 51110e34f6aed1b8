#!/bin/bash
# The guest runner of make check-debug (scripts/measure.sh -C debug -J splats RUNNER debug-run), in
# the debug VM (KCSAN, lockdep): short runs of the benchmarks the series changes (with the
# freelist's race of two CPUs and the LRU's inserts where the bench has them), a full stack map
# popped in NMI, then the selftests the series touches.
#   scripts/guest/debug-run.sh -b BENCH_DIR -s SELFTESTS_DIR -N NMI_STACKMAP
# -b: the bench's directory; -s: the selftests' (test_progs); -N: tools/testing/nmi_stackmap's
# binary. Exits 1 if a run failed; the splats are judged on the host (scripts/lib/splats.sh).
# test_maps is left out: under KCSAN in TCG its 100-task map tests take more than 10 minutes.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"	# list_entries, BASE_CONFIG (BASE comes from the host)
check_knobs
usage="usage: scripts/guest/debug-run.sh -b BENCH_DIR -s SELFTESTS_DIR -N NMI_STACKMAP"
bench_dir='' tests_dir='' nmi_stackmap=''
while getopts :b:s:N: opt; do
	case $opt in
	b) bench_dir=$OPTARG ;;
	s) tests_dir=$OPTARG ;;
	N) nmi_stackmap=$OPTARG ;;
	*) bad_option "$opt" "$OPTARG" "$usage" ;;
	esac
done
shift $((OPTIND - 1))
if (($#)) || [[ -z $bench_dir || -z $tests_dir || -z $nmi_stackmap ]]; then
	die "$usage"
fi
cd "$tests_dir"
status=0
# A bench run fails on a non-zero exit and on a WARNING line (e.g. update outcomes that do not
# match the mode).
bench() {
	local out rc=0
	echo "+ bench $*"
	out=$("$bench_dir/bench" "$@" 2>&1) || rc=$?
	echo "$out"
	((rc == 0)) && ! grep -q '^WARNING' <<<"$out"
}
bench -w1 -d2 -p2 bpf-hashmap-full-update --mode full || status=1
bench -w1 -d2 -p2 bpf-hashmap-full-update --mode existing || status=1
bench -w1 -d2 -p2 htab-mem --use-case add_del_on_diff_cpu --preallocated || status=1
# The freelist's bitmap race, where the bench has --mode race (7.3's 03-freelist): CPU 0 frees its
# element onto its own head, setting that head's bit, while CPU 1's failing inserts walk the bitmap
# and clear the bits of heads they empty. Back to back: an open loop's schedule is not kept under KCSAN.
if "$bench_dir/bench" --help 2>&1 | grep -q -- '--churners'; then
	bench -w1 -d5 -a -p2 bpf-hashmap-full-update --mode race --period_ns 0 || status=1
fi
# The common LRU's refills, where the bench has bpf-lru-hashmap-update (7.3's 04-lru, 6.12's
# backport): two CPUs insert into a full 64-entry map, each refill rotating and shrinking the
# global lists for max_entries / possible CPUs / 2 nodes under their lock.
if "$bench_dir/bench" -l 2>/dev/null | grep -q -- '^- bpf-lru-hashmap-update$'; then
	bench -w1 -d2 -a -p2 bpf-lru-hashmap-update --max_entries 64 || status=1
fi
bench -w1 -d2 -p2 htab-mem --use-case batch_add_batch_del || status=1
bench -w1 -d2 --nr_maps 16 local-storage-cache-seq-get || status=1
# A full stack map popped in NMI (tools/testing/nmi_stackmap): the console quiet while sysrq 'l'
# prints its backtraces, then loud again for the splats.
echo "+ nmi_stackmap -d 10"
dmesg -n 1
"$nmi_stackmap" -d 10 || status=1
dmesg -n 5	# loglevel=5, as vm.sh boots it
# The selftests of the code the series touches: config/ALLOWLIST, the test_progs tests CI runs of
# make regress (hash maps, stack trace maps, local storage), without the base's DENYLIST, and
# without two that need more than this tinyconfig-based kernel has (both pass on make regress's
# kernel, base and series): map_ptr (skel_load: -22, map types it does not build) and
# cgroup_hierarchical_stats ("cgroup_id: actual 108 != expected 0").
allow=$(list_entries "$LAB_ROOT/config/ALLOWLIST" | paste -sd,)
deny=$(list_entries "$BASE_CONFIG/DENYLIST" | paste -sd,),map_ptr,cgroup_hierarchical_stats
set -x
./test_progs -a "$allow" -d "$deny" || status=1
exit $status
