#!/bin/bash
# The selftests that make regress and make check-debug build (test_progs, with bpf_testmod.ko) are
# per kernel: bpf_testmod.ko carries its kernel's version and split BTF on top of that kernel's,
# and a kernel refuses a module built for another ("failed to validate module [bpf_testmod] BTF:
# -22", 6.12's debug kernel before faac6b4). So two commits of the series with the same tools/ tree
# and different kernels (the freelist patch, last in the series, changes only kernel/) must get
# two selftests directories for -c regress and for -c debug, and one bench directory for -c bench.
# Plant: check-debug's selftests keyed by tools/ only, as before faac6b4.
# Plant command: sed -i 's/^\tif \[\[ \$config == regress || \$config == debug \]\]; then$/\tif [[ $config == regress ]]; then/' scripts/bench-build.sh
# Plant: make regress's selftests keyed by tools/ only.
# Plant command: sed -i 's/^\tif \[\[ \$config == regress || \$config == debug \]\]; then$/\tif [[ $config == debug ]]; then/' scripts/bench-build.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

selftests_build_per_kernel() {
	local head parent c a b
	"$S/tree.sh" >/dev/null
	head=$(tree_head)
	parent=$(git -C "$TREE" rev-parse "$head~1")
	[[ $(git -C "$TREE" rev-parse "$head:tools") == $(git -C "$TREE" rev-parse "$parent:tools") ]] ||
		skip "the last patch of patches/$BASE changes tools/: no two commits with one tools/ tree"
	[[ $(git -C "$TREE" rev-parse "$head:kernel") != $(git -C "$TREE" rev-parse "$parent:kernel") ]] ||
		skip "the last patch of patches/$BASE does not change kernel/"
	for c in regress debug; do
		a=$("$S/bench-build.sh" -n -c "$c" "$parent" test_progs)
		b=$("$S/bench-build.sh" -n -c "$c" "$head" test_progs)
		echo "-c $c: ${a##*/} / ${b##*/}"
		[[ $a != "$b" ]] || { echo "-c $c: one selftests directory for two kernels: $a"; return 1; }
	done
	a=$("$S/bench-build.sh" -n "$parent")
	b=$("$S/bench-build.sh" -n "$head")
	[[ $a == "$b" ]] || { echo "bench: two directories for one tools/ tree: $a, $b"; return 1; }
}

run_test selftests_build_per_kernel "$@"
