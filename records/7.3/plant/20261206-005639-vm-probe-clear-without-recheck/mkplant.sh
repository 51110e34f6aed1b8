#!/bin/bash
# build the bench kernel of the 7.3 series with lab/plants/NAME.patch (or none) applied; prints the kernel
set -eu
name=$1
cd /work/main
. scripts/lib.sh
rev=$(git -C "$TREE" rev-parse HEAD)
[[ $name == none ]] && { scripts/kernel.sh -c bench "$rev"; exit; }
wt=$(mktemp -d "$BASE_CACHE/plant.XXXXXX")
trap 'git -C "$TREE" worktree remove --force "$wt" 2>/dev/null; rm -rf "$wt"' EXIT
git -C "$TREE" worktree add -q --no-checkout --detach "$wt" "$rev"
git -C "$wt" read-tree HEAD
git -C "$wt" checkout HEAD -- kernel/bpf/percpu_freelist.c
patch -p1 -d "$wt" < "$LAB_ROOT/lab/plants/$name.patch" >&2
git -C "$wt" commit -q -m "PLANT: $name" -- kernel/bpf/percpu_freelist.c
plant=$(git -C "$wt" rev-parse HEAD)
git -C "$TREE" tag -f "lab-patched/$name-probe" "$plant" >&2
scripts/kernel.sh -c bench "$plant"
