#!/bin/bash
# Build the BPF selftests `bench` of one commit of the tree and print the directory holding it
# (bench, benchs/ run scripts). Built with the selftests Makefile: in-tree libbpf and bpftool,
# Debian's clang, vmlinux.h from the BTF of the kernel built for the same commit.
#   scripts/bench-build.sh <commit-ish> [target...]   (default target: bench)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ $# -ge 1 ]] || die "usage: bench-build.sh <commit-ish> [make target...]"
commit=$(git -C "$TREE" rev-parse --verify -q "$1^{commit}") || die "no commit '$1' in $TREE (run: make tree)"
shift
targets=("${@:-bench}")
out=$LAB_CACHE/bench/$(git -C "$TREE" rev-parse "$commit:tools" | cut -c1-12)
if [[ -x $out/bench && ${#targets[@]} == 1 && ${targets[0]} == bench ]]; then
	echo "$out"
	exit 0
fi
need clang llc llvm-strip pahole
lock_build_src

kernel=$("$LAB_ROOT/scripts/kernel.sh" "$commit")
git -C "$BUILD_SRC" checkout -q -f --detach "$commit"
obj=$LAB_CACHE/obj/selftests-bpf
mkdir -p "$obj"
log=$obj/build.log
build() {
	make -C "$BUILD_SRC/tools/testing/selftests/bpf" -j"$JOBS" OUTPUT="$obj" \
		VMLINUX_BTF="$kernel/vmlinux" "${targets[@]}" >"$log" 2>&1
}
if ! step "building ${targets[*]} at $(git -C "$TREE" log -1 --format='%h %s' "$commit") (log: $log)" build; then
	grep -E 'error|Error' "$log" | head -n 20 >&2
	die "selftests build failed, see $log"
fi
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp -r "$BUILD_SRC/tools/testing/selftests/bpf/benchs" "$out.tmp/"
for t in bench test_progs test_maps; do
	[[ -x $obj/$t ]] && cp "$obj/$t" "$out.tmp/"
done
# test_progs loads its BPF objects from its own directory.
if [[ -x $obj/test_progs ]]; then
	cp "$obj"/*.bpf.o "$out.tmp/" 2>/dev/null || true
fi
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
