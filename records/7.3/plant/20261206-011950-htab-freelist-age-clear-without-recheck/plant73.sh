#!/bin/bash
# test_progs -t htab_freelist in the VM on the 7.3 series' debug kernel with lab/plants/NAME.patch
# applied to kernel/bpf/percpu_freelist.c (NAME "none": the series' own kernel), test_progs of the
# tree's HEAD (the series); prints the test's output, exits with its status.
#   LAB=<lab checkout> bash plant73.sh NAME
set -u
name=$1
cd "${LAB:?}"
export BASE=7.3
. scripts/lib.sh
rev=$(git -C "$TREE" rev-parse HEAD)
if [[ $name == none ]]; then
	plant=$rev
else
	wt=$(mktemp -d "$BASE_CACHE/plant.XXXXXX")
	trap 'git -C "$TREE" worktree remove --force "$wt" 2>/dev/null; rm -rf "$wt"' EXIT
	git -C "$TREE" worktree add -q --no-checkout --detach "$wt" "$rev"
	git -C "$wt" read-tree HEAD
	git -C "$wt" checkout HEAD -- kernel/bpf/percpu_freelist.c
	patch -p1 -d "$wt" <"$LAB_ROOT/lab/plants/$name.patch" >&2 || exit 2
	git -C "$wt" commit -q -m "PLANT: $name" -- kernel/bpf/percpu_freelist.c
	plant=$(git -C "$wt" rev-parse HEAD)
	git -C "$TREE" tag -f "lab-patched/$name-manual" "$plant" >&2
fi
kernel=$(scripts/kernel.sh -c debug "$plant") || exit 2
tests_dir=$(scripts/bench-build.sh -c debug "$rev" test_progs test_maps) || exit 2
echo ">>> plant $name: kernel $kernel, test_progs of ${rev:0:12}"
scripts/vm.sh -k "$kernel" -t 1200 -- "cd $tests_dir && ./test_progs -t htab_freelist"
