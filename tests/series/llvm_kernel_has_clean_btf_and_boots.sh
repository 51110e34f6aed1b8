#!/bin/bash
# BPF CI's second toolchain on the series (LLVM=1: clang and lld of config/<base>/toolchain.conf's
# KERNEL_LLVM): HEAD's benchmark kernel builds, its BTF has no kind of pahole or resolve_btfids
# warning that the gcc kernel's has not, no BTF ID left unresolved that gcc resolves
# (scripts/btf-check.sh), and it boots and runs a command. Slow (make check-slow): a cold LLVM
# kernel build on 2 cores is minutes that CI's hour has no room for; make check-slow
# TESTS='*llvm*' runs it.
# Plant: the LLVM kernel's BTF made with bookworm's pahole 1.24 (DW_TAG_label not handled).
# Plant command: sed -i '/^LLVM_PAHOLE=/d' config/7.3/toolchain.conf
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

llvm_kernel_has_clean_btf_and_boots() {
	[[ -n $KERNEL_LLVM ]] || skip "config/$BASE/toolchain.conf names no KERNEL_LLVM: its kernels build with gcc only"
	"$S/btf-check.sh" HEAD
	LLVM=1 "$S/vm.sh" -- 'uname -r; grep -o "clang version [0-9.]*" /proc/version'
}

run_test llvm_kernel_has_clean_btf_and_boots "$@"
