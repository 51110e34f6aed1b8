#!/bin/bash
# scripts/btf-check.sh passes when the LLVM=1 kernel's BTF warnings are kinds the gcc kernel's has
# too (numbers aside), and fails, naming it, on a kind gcc's has not (pahole 1.24 on clang's DWARF:
# "DW_TAG_label not handled") or a BTF ID left unresolved that gcc's resolves; an ID both leave
# unresolved is named, the commit's and its config's. Kernels of a
# synthetic tree, made by hand in a scratch cache (bzImage and btf-warnings): nothing is built.
# Plant: the comparison turned around (gcc's warnings that LLVM has not, instead).
# Plant command: sed -i "s/^new=\$(comm -13 /new=\$(comm -23 /" scripts/btf-check.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# kernel TOOLCHAIN LINE...: the kernel of HEAD built with TOOLCHAIN (gcc, or llvm), with LINEs as
# its btf-warnings
fake_kernel() {
	local llvm=0 dir
	[[ $1 == gcc ]] || llvm=1
	shift
	dir=$(LLVM=$llvm "$S/kernel.sh" -n HEAD)
	mkdir -p "$dir"
	: >"$dir/bzImage"
	printf '%s\n' "$@" >"$dir/btf-warnings"
}

# check EXPECTED_STATUS PATTERN: btf-check.sh exits with EXPECTED_STATUS and prints PATTERN
check() {
	local out rc=0
	out=$("$S/btf-check.sh" 2>&1) || rc=$?
	sed 's/^/  /' <<<"$out"
	[[ $rc == "$1" ]] || { echo "btf-check.sh exited $rc, expected $1"; return 1; }
	grep -q -- "$2" <<<"$out" || { echo "btf-check.sh did not say '$2'"; return 1; }
}

btf_check_names_what_llvm_adds() {
	[[ -n $KERNEL_LLVM ]] || skip "config/$BASE/toolchain.conf names no KERNEL_LLVM"
	export LAB_CACHE=$scratch/cache LAB_TREE=$scratch/tree
	TREE=$LAB_TREE
	git init -q "$TREE"
	echo x >"$TREE/f"
	git -C "$TREE" add f
	git -C "$TREE" -c user.name=lab -c user.email=lab@localhost commit -qm tree
	local multiple="WARN: multiple IDs found for 'bpf_lsm_mmap_file': 38235, 38236 - using 38235"
	fake_kernel gcc "$multiple" "WARN: resolve_btfids: unresolved symbol bpf_lsm_socket_sendmsg"
	fake_kernel llvm "WARN: multiple IDs found for 'bpf_lsm_mmap_file': 40001, 40002 - using 40001"
	echo "the same kinds as gcc's, other numbers, one unresolved ID fewer:"
	check 0 'LLVM=1: no BTF warning that gcc has not, no BTF ID unresolved that gcc resolves'
	fake_kernel llvm "$multiple" "die__process_inlined_subroutine: DW_TAG_label (0xa) @ <0x1f2e3d> not handled!" \
		"die__process_inlined_subroutine: DW_TAG_label (0xa) @ <0x1f2e4f> not handled!"
	echo "a kind of warning gcc's has not:"
	check 1 '  2 die__process_inlined_subroutine: DW_TAG_label (N) @ <N> not handled!'
	fake_kernel llvm "$multiple" "WARN: resolve_btfids: unresolved symbol bpf_lsm_socket_sendmsg" \
		"WARN: resolve_btfids: unresolved symbol bpf_lsm_planted"
	echo "a BTF ID that gcc's resolves:"
	check 1 'LLVM=1 leaves BTF IDs unresolved that gcc resolves'
	fake_kernel llvm "$multiple" "WARN: resolve_btfids: unresolved symbol bpf_lsm_socket_sendmsg"
	echo "the BTF ID that gcc's leaves unresolved too (the commit's and its config's):"
	check 0 'unresolved in both builds, the commit.s and its config.s: bpf_lsm_socket_sendmsg'
}

run_test btf_check_names_what_llvm_adds "$@"
