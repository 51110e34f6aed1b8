#!/bin/bash
# Build nmi_stackmap against a built BPF selftests directory (scripts/bench-build.sh's output with
# test_progs: its vmlinux.h, libbpf and bpftool) into OUT_DIR, and print the binary's path.
#   tools/testing/nmi_stackmap/build.sh SELFTESTS_DIR OUT_DIR [CLANG]
set -euo pipefail
shopt -s inherit_errexit	# set -e reaches into $(...) too

die() {
	echo "error: $*" >&2
	exit 1
}
usage="usage: tools/testing/nmi_stackmap/build.sh SELFTESTS_DIR OUT_DIR [CLANG]"
[[ ${1:-} != -h && ${1:-} != --help ]] || { echo "$usage"; exit 0; }
[[ $# == 2 || $# == 3 ]] || die "$usage"
st=$1 out=$2 clang=${3:-clang}
src=$(cd "$(dirname "$0")" && pwd)
inc=$st/tools/include libbpf=$st/tools/build/libbpf/libbpf.a bpftool=$st/tools/sbin/bpftool
for f in "$inc/vmlinux.h" "$inc/bpf/bpf_helpers.h" "$libbpf" "$bpftool"; do
	[[ -e $f ]] || die "$f: missing (build the selftests first: scripts/bench-build.sh -c CONFIG REV test_progs)"
done
for cmd in "$clang" gcc; do
	command -v "$cmd" >/dev/null || die "missing '$cmd' (the lab installs it: make deps)"
done
mkdir -p "$out"
"$clang" -g -O2 --target=bpf -D__TARGET_ARCH_x86 -Wno-missing-declarations -I"$inc" -I"$src" \
	-c "$src/nmi_stackmap.bpf.c" -o "$out/nmi_stackmap.bpf.o"
"$bpftool" gen skeleton "$out/nmi_stackmap.bpf.o" name nmi_stackmap >"$out/nmi_stackmap.skel.h.tmp"
mv "$out/nmi_stackmap.skel.h.tmp" "$out/nmi_stackmap.skel.h"
gcc -O2 -Wall -Werror -I"$out" -I"$inc" -I"$src" "$src/nmi_stackmap.c" "$libbpf" -lelf -lz \
	-o "$out/nmi_stackmap"
echo "$out/nmi_stackmap"
