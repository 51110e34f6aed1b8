#!/bin/bash
# make deps installs the clang and llvm of every LLVM a base names (config/<base>/toolchain.conf:
# SELFTESTS_LLVM, BENCH_LLVM, any <WHAT>_LLVM=N), so that make regress and check-debug find them on
# a fresh machine, and the lld and llvm-N-dev of the LLVM that LLVM=1 builds the kernels and
# their selftests with (KERNEL_LLVM=N), and libzstd-dev, which LLVM's static libraries link.
# Plant: deps.sh reading only the names it read before SELFTESTS_LLVM existed (6.12's LLVM 19 then
# goes uninstalled: make regress BASE=6.12 stopped with "missing 'clang-19'").
# Plant command: sed -i 's/\^\[A-Z_\]+_LLVM=/^(REGRESS|BENCH)_LLVM=/' scripts/deps.sh
# Plant: deps.sh without the lld of KERNEL_LLVM (make kernel LLVM=1: "missing 'ld.lld-22'").
# Plant command: sed -i 's/packages+=("lld-$v" "llvm-$v-dev" libzstd-dev)/:/' scripts/deps.sh
# Plant: deps.sh without llvm-N-dev and libzstd-dev (make regress LLVM=1: "'llvm-c/Core.h' file
# not found", then "cannot find -lzstd").
# Plant command: sed -i 's/packages+=("lld-$v" "llvm-$v-dev" libzstd-dev)/packages+=("lld-$v")/' scripts/deps.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

deps_install_every_llvm() {
	local listed conf line v p pkgs rc=0
	listed=$("$S/deps.sh" -n) || { echo "# deps.sh -n failed"; return 1; }
	for conf in "$LAB_ROOT"/config/*/toolchain.conf; do
		while read -r line; do
			v=${line#*=}
			[[ $v =~ ^[0-9]+$ ]] || { echo "# ${conf#"$LAB_ROOT"/}: $line: not a version number"; rc=1; continue; }
			pkgs=("clang-$v" "llvm-$v")
			[[ $line != KERNEL_LLVM=* ]] || pkgs+=("lld-$v" "llvm-$v-dev" libzstd-dev)
			for p in "${pkgs[@]}"; do
				grep -qx "$p" <<<"$listed" ||
					{ echo "# ${conf#"$LAB_ROOT"/}: $line, but deps.sh does not install $p"; rc=1; }
			done
		done < <(grep -E '^[A-Z_]+_LLVM=' "$conf")
	done
	return "$rc"
}

run_test deps_install_every_llvm "$@"
