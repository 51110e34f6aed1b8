#!/bin/bash
# test_progs -t htab_freelist in the VM on the 7.3 series' debug kernel with lab/plants/NAME.patch
# applied to kernel/bpf/percpu_freelist.c (the commit check-debug measured, 4b87251: no kernel
# change since); prints the test's output, exits with its status
set -u
name=$1
cd /work/main
. scripts/lib.sh
rev=4b87251
wt=$(mktemp -d "$BASE_CACHE/plant.XXXXXX")
trap 'git -C "$TREE" worktree remove --force "$wt" 2>/dev/null; rm -rf "$wt"' EXIT
git -C "$TREE" worktree add -q --no-checkout --detach "$wt" "$rev"
git -C "$wt" read-tree HEAD
git -C "$wt" checkout HEAD -- kernel/bpf/percpu_freelist.c
patch -p1 -d "$wt" < "$LAB_ROOT/lab/plants/$name.patch" >&2 || exit 2
git -C "$wt" commit -q -m "PLANT: $name" -- kernel/bpf/percpu_freelist.c
plant=$(git -C "$wt" rev-parse HEAD)
git -C "$TREE" tag -f "lab-patched/$name-manual" "$plant" >&2
kernel=$(scripts/kernel.sh -c debug "$plant") || exit 2
tests_dir=$(scripts/bench-build.sh -c debug "$rev" test_progs test_maps) || exit 2
echo ">>> plant $name: kernel $kernel, test_progs of $rev"
scripts/vm.sh -k "$kernel" -t 1200 -- "cd $tests_dir && ./test_progs -t htab_freelist"
