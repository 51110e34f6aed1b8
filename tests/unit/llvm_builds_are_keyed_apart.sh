#!/bin/bash
# LLVM=1 (BPF CI's second toolchain) never shares a build with gcc: the kernels of each config,
# their object directories, the bench and the regress selftests have other names in the cache
# than gcc's, naming the LLVM; LLVM=0 is gcc, under gcc's names. The lab's own LLVM knob never
# reaches the kernel's make, which reads any LLVM, 0 too, as "build with clang": lab_make drops
# it, and an LLVM build passes LLVM=-N itself. A synthetic tree; nothing is built.
# Plant: the kernel's name without its toolchain (an LLVM kernel would be taken for gcc's).
# Plant command: sed -i 's/\$config${KERNEL_TOOLCHAIN:+-$KERNEL_TOOLCHAIN}-/$config-/' scripts/kernel.sh
# Plant: lab_make passing on the lab's LLVM=1 (make kernel LLVM=0 would build with clang 14).
# Plant command: sed -i 's/ -u LLVM make / make /' scripts/lib/procs.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

llvm_builds_are_keyed_apart() {
	local llvm config gcc clang zero f out llvm_knob
	[[ -n $KERNEL_LLVM ]] || skip "config/$BASE/toolchain.conf names no KERNEL_LLVM"
	llvm=$KERNEL_LLVM
	export LAB_CACHE=$scratch/cache LAB_TREE=$scratch/tree
	TREE=$LAB_TREE
	git init -q "$TREE"
	for f in tools/testing/selftests/bpf/config tools/testing/selftests/bpf/config.x86_64 kernel/f.c; do
		mkdir -p "$TREE/$(dirname "$f")"
		echo "# $f" >"$TREE/$f"
	done
	git -C "$TREE" add -A
	git -C "$TREE" -c user.name=lab -c user.email=lab@localhost commit -qm tree
	for config in bench regress; do
		gcc=$(env -u LLVM "$S/kernel.sh" -n -c "$config" HEAD)
		zero=$(LLVM=0 "$S/kernel.sh" -n -c "$config" HEAD)
		clang=$(LLVM=1 "$S/kernel.sh" -n -c "$config" HEAD)
		echo "$config kernel: gcc ${gcc##*/}, LLVM=0 ${zero##*/}, LLVM=1 ${clang##*/}"
		[[ $zero == "$gcc" ]] || { echo "LLVM=0 is not gcc's kernel"; return 1; }
		[[ $clang != "$gcc" && ${clang##*/} == *llvm$llvm* ]] ||
			{ echo "the LLVM=1 $config kernel is not named apart from gcc's, with llvm$llvm"; return 1; }
		# shellcheck disable=SC2016 # the inner shell's variables
		gcc=$(env -u LLVM bash -c '. "$1/lib.sh"; kernel_obj "$2"' - "$S" "$config")
		clang=$(LLVM=1 bash -c '. "$1/lib.sh"; kernel_obj "$2"' - "$S" "$config")
		echo "$config objects: gcc ${gcc##*/}, LLVM=1 ${clang##*/}"
		[[ $clang != "$gcc" ]] || { echo "gcc and LLVM=1 share the $config object directory"; return 1; }
	done
	gcc=$(env -u LLVM "$S/bench-build.sh" -n HEAD)
	clang=$(LLVM=1 "$S/bench-build.sh" -n HEAD)
	echo "bench: gcc ${gcc##*/}, LLVM=1 ${clang##*/}"
	[[ $clang != "$gcc" ]] || { echo "gcc's and LLVM=1's bench share a directory"; return 1; }
	gcc=$(env -u LLVM "$S/bench-build.sh" -n -c regress HEAD test_progs)
	clang=$(LLVM=1 "$S/bench-build.sh" -n -c regress HEAD test_progs)
	[[ $clang != "$gcc" ]] || { echo "gcc's and LLVM=1's test_progs share a directory"; return 1; }
	# what the kernel's make sees of LLVM
	# shellcheck disable=SC2016 # make's variable
	printf 'all:\n\t@echo "LLVM=[$(LLVM)]"\n' >"$scratch/Makefile"
	for llvm_knob in 0 1; do
		# shellcheck disable=SC2016 # the inner shell's variables
		out=$(LLVM=$llvm_knob bash -c '. "$1/lib.sh"; lab_make -s -C "$2" "${KERNEL_MAKE_ARGS[@]}"' - "$S" "$scratch")
		echo "make under LLVM=$llvm_knob: $out"
		case $llvm_knob in
		0) [[ $out == 'LLVM=[]' ]] || { echo "LLVM=0 reached make: it would build with clang"; return 1; } ;;
		1) [[ $out == "LLVM=[-$llvm]" ]] || { echo "LLVM=1 did not reach make as LLVM=-$llvm"; return 1; } ;;
		esac
	done
}

run_test llvm_builds_are_keyed_apart "$@"
