#!/bin/bash
# The code of one BPF program of the selftests at some commits of the tree, side by side: each
# commit's tools/testing/selftests/bpf/progs/PROG.c compiled with one command line (clang of
# BENCH_LLVM, -O2 -mcpu=v3, the vmlinux.h of a selftests build in the cache), then per function a
# hash of its instructions with addresses masked, and the object's .bss and .data sizes. Tells
# whether a benchmark measured at one commit runs the same BPF code as the one posted at another.
#   scripts/bpf-code.sh PROG REV...      e.g. scripts/bpf-code.sh bpf_hashmap_full_update_bench race-open2 HEAD
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs

usage="usage: scripts/bpf-code.sh PROG REV...   (PROG: a file of tools/testing/selftests/bpf/progs/, without .c)"
while getopts :h opt; do
	case $opt in
	h) echo "$usage"; exit 0 ;;
	*) bad_option "$opt" "$OPTARG" "$usage" ;;
	esac
done
shift $((OPTIND - 1))
(($# >= 2)) || die "$usage"
prog=$1
shift
[[ $prog =~ ^[A-Za-z0-9_]+$ ]] || die "PROG '$prog': a file name of progs/ without .c"
clang=clang${BENCH_LLVM:+-$BENCH_LLVM} objdump=llvm-objdump${BENCH_LLVM:+-$BENCH_LLVM}
for tool in "$clang" "$objdump"; do
	command -v "$tool" >/dev/null || die "$tool not found (run: make deps)"
done
vmlinux_h=$(find "$BASE_CACHE/selftests" -maxdepth 4 -path '*/tools/include/vmlinux.h' 2>/dev/null | head -n1)
[[ -n $vmlinux_h ]] || die "no selftests build in $BASE_CACHE/selftests to take vmlinux.h from (make check-debug or make regress builds one)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for rev in "$@"; do
	commit=$(git -C "$TREE" rev-parse --verify -q "$rev^{commit}") || die "'$rev' is not a commit of $TREE"
	src=$tmp/$commit
	mkdir -p "$src"
	git -C "$TREE" cat-file -e "$commit:tools/testing/selftests/bpf/progs/$prog.c" 2>/dev/null ||
		die "$rev has no tools/testing/selftests/bpf/progs/$prog.c"
	git -C "$TREE" archive "$commit" tools/testing/selftests/bpf tools/lib/bpf tools/include | tar -x -C "$src"
	st=$src/tools/testing/selftests/bpf
	"$clang" -g -O2 --target=bpf -mcpu=v3 -D__TARGET_ARCH_x86 -mlittle-endian -w \
		-I"${vmlinux_h%/*}" -I"$st" -I"$src/tools/lib" -I"$src/tools/include/uapi" \
		-c "$st/progs/$prog.c" -o "$src/prog.o" 2>"$src/cc.log" ||
		{ cat "$src/cc.log" >&2; die "$rev: $prog.c does not compile"; }
	echo "$rev ($(git -C "$TREE" log -1 --format='%h %s' "$commit")):"
	# per function: its instructions without their numbers and the addresses they name
	"$objdump" -d --no-show-raw-insn "$src/prog.o" | awk '
		/^[0-9a-f]+ <[^>]+>:$/ { if (f != "") print f, n; f = $2; n = ""; next }
		f != "" && /^ *[0-9]+:/ { sub(/^ *[0-9]+:[ \t]*/, ""); gsub(/0x[0-9a-f]+ ll/, "ADDR ll"); gsub(/<[^>]*>/, ""); n = n $0 ";" }
		END { if (f != "") print f, n }' |
		while read -r fn code; do
			printf '  %-32s %3d instructions, %s\n' "${fn//[<>:]/}" "$(tr -cd ';' <<<"$code" | wc -c)" \
				"$(sha1sum <<<"$code" | cut -c1-12)"
		done
	"$objdump" -h "$src/prog.o" | while read -r _ name size _; do
		[[ $name != .bss && $name != .data ]] || printf '  %-32s %d bytes\n' "$name" $((16#$size))
	done
done
