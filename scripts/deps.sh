#!/bin/bash
# Install the Debian packages the lab needs. The one list of them lives here.
#   scripts/deps.sh       install what is missing
#   scripts/deps.sh -n    print the list, one package a line, and install nothing
set -euo pipefail
. "$(dirname "$0")/lib.sh"
check_knobs

list_only=0
case "$*" in
'') ;;
-n) list_only=1 ;;
*) die "usage: scripts/deps.sh [-n]" ;;
esac

packages=(
	build-essential bc bison flex cpio kmod libelf-dev libssl-dev dwarves	# kernel
	clang llvm libcap-dev zlib1g-dev rsync					# selftests bench
	qemu-system-x86 perl							# VM
	sparse b4 strace shellcheck					# make check
	cmake libgtest-dev libbenchmark-dev valgrind			# C++ harness (valgrind: run.sh count)
	python3 python3-matplotlib python3-scipy jq				# compare; make findings' pictures (matplotlib)
	iputils-ping iptables ethtool netcat-openbsd keyutils	# make regress: what the BPF selftests call
)
# and the LLVMs the bases' selftests are built with (config/<base>/toolchain.conf: every
# <WHAT>_LLVM=N, SELFTESTS_LLVM and BENCH_LLVM today), and lld-N of the LLVM its kernels are built
# with under LLVM=1 (KERNEL_LLVM=N), with llvm-N-dev and libzstd-dev: the selftests built against
# those kernels find llvm-config-N and link test_progs statically with LLVM's disassembler and the
# system libraries it names (-lzstd), as BPF CI's do.
# The bases' kernel sources are not installed: scripts/base.sh fetches them into the lab's cache.
while read -r v; do
	packages+=("clang-$v" "llvm-$v")
done < <(cat "$LAB_ROOT"/config/*/toolchain.conf 2>/dev/null | grep -oE '^[A-Z_]+_LLVM=[0-9]+' | cut -d= -f2 | sort -u)
while read -r v; do
	packages+=("lld-$v" "llvm-$v-dev" libzstd-dev)
done < <(cat "$LAB_ROOT"/config/*/toolchain.conf 2>/dev/null | grep -oE '^KERNEL_LLVM=[0-9]+' | cut -d= -f2 | sort -u)
if ((list_only)); then
	printf '%s\n' "${packages[@]}"
	exit 0
fi
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
((${#missing[@]})) || exit 0
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || die "apt-get update failed"
note "installing ${missing[*]}"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || die "apt-get install failed: ${missing[*]}"
