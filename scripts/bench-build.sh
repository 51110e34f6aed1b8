#!/bin/bash
# Build the BPF selftests `bench` (or other selftests targets) of one commit of the tree and print
# the directory holding the result. Built with the selftests Makefile: in-tree libbpf and bpftool,
# Debian's clang, vmlinux.h from the BTF of the kernel built for the same commit.
#   scripts/bench-build.sh [-c bench|selftests|debug|regress] <commit-ish> [target...]   (default target: bench)
# `bench` alone is built out of tree and its directory holds bench and benchs/. Other targets
# (test_progs, test_maps) are built in the source tree, as 6.1's Makefile assumes for
# urandom_read and bpf_testmod.ko: in a worktree of their own, so that their generated headers
# never shadow those of the out-of-tree bench build; the whole selftests directory is copied out.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs
# TREE=: the lab's clone of it, which this reads and makes its worktrees from (scripts/tree.sh)
[[ -z $OWN_TREE ]] || git -C "$TREE" rev-parse -q --git-dir >/dev/null 2>&1 || "$LAB_ROOT/scripts/tree.sh"

config=bench name_only=0 unbuildable='' llvm='' clang=clang
while getopts :c:n opt; do
	case $opt in
	c) config=$OPTARG ;;
	n) name_only=1 ;;	# print the directory the build is (or would be) in, build nothing
	*) bad_option "$opt" "$OPTARG" "usage: bench-build.sh [-c bench|selftests|debug|regress] [-n] <commit-ish> [target...]" ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -ge 1 ]] || die "usage: bench-build.sh [-c bench|selftests|debug|regress] [-n] <commit-ish> [target...]"
commit=$(tree_commit "$1")
shift
targets=("${@:-bench}")
tools=$(git -C "$TREE" rev-parse "$commit:tools" | cut -c1-12)
src=$BUILD_SRC
# built DIR: DIR holds every target asked for, built for it (DIR/.lab-targets lists them: the
# worktree it is copied from may hold other commits' binaries), each test_progs flavour
# (test_progs-no_alu32: in no_alu32/) with its copy of the test modules. One directory serves the
# debug or the regress suites of one kernel, and a build of fewer targets (check-debug's) leaves
# the others out.
built() {
	local t
	for t in "${targets[@]}"; do
		[[ -x $1/$t ]] && grep -qxF -- "$t" "$1/.lab-targets" 2>/dev/null || return 1
		[[ $t != test_progs-* || ! -e $1/bpf_testmod.ko || -e $1/${t#test_progs-}/bpf_testmod.ko ]] || return 1
	done
}
if [[ ${targets[*]} == bench ]]; then
	out=$BASE_CACHE/bench/$tools
	[[ $config == bench ]] || out=$out-$config
	llvm=$BENCH_LLVM
	[[ -z $llvm ]] || out+=-llvm$llvm
	# LLVM=1: built with clang and lld too, against the LLVM kernel's BTF
	[[ -z $KERNEL_TOOLCHAIN ]] || out+=-$KERNEL_TOOLCHAIN
	[[ -x $out/bench ]] || ((name_only)) && { echo "$out"; exit 0; }
	obj=$WORK_CACHE/obj/selftests-bpf${config#bench}${KERNEL_OBJ_TAG:+-$KERNEL_OBJ_TAG}
	make_args=(OUTPUT="$obj")
else
	out=$BASE_CACHE/selftests/$tools-$config
	# bpf_testmod.ko carries the kernel's version (with its git hash) and split BTF on top of the
	# kernel's: the regress and debug selftests are per kernel, so that a kernel that differs only
	# outside tools/ gets a module it loads (6.12's debug kernel refused one built for the one
	# before: "failed to validate module [bpf_testmod] BTF: -22").
	if [[ $config == regress || $config == debug ]]; then
		kernel_name=$("$LAB_ROOT/scripts/kernel.sh" -n -c "$config" "$commit")
		out+=-${kernel_name##*/}
	fi
	[[ -z $SELFTESTS_LLVM ]] || llvm=$SELFTESTS_LLVM
	[[ -z $llvm ]] || out+=-llvm$llvm
	unbuildable=$(list_entries "$BASE_CONFIG/selftests-unbuildable")
	[[ -z $unbuildable ]] || out+=-$(sha1sum <<<"$unbuildable" | cut -c1-6)
	built "$out" || ((name_only)) && { echo "$out"; exit 0; }
	# (LLVM=1: a worktree of its own, so that gcc and LLVM builds do not clean each other's)
	src=$WORK_CACHE/selftests-src${KERNEL_OBJ_TAG:+-$KERNEL_OBJ_TAG}
	obj=$src/tools/testing/selftests/bpf
	# The test modules (bpf_testmod.ko) are built against the kernel's object directory: given
	# as KDIR, or, where the commit's test_kmods/Makefile finds the kernel build through
	# O/KBUILD_OUTPUT (7.3: KDIR is then the source tree), as KBUILD_OUTPUT, with OUTPUT kept
	# in the tree (lib.mk would put the selftests under KBUILD_OUTPUT).
	if git -C "$TREE" show "$commit:tools/testing/selftests/bpf/test_kmods/Makefile" 2>/dev/null |
		grep -q 'KBUILD_OUTPUT'; then
		make_args=(KBUILD_OUTPUT="$(kernel_obj "$config")" OUTPUT="$obj")
	else
		make_args=(KDIR="$(kernel_obj "$config")")
	fi
fi
# LLVM=1: the userspace and the test modules with the kernel's clang and lld (LLVM=-N), the
# modules' BTF with its pahole
make_args+=("${KERNEL_MAKE_ARGS[@]}")
selftests=$src/tools/testing/selftests/bpf
need clang llc llvm-strip pahole modinfo
# A base's suites (make regress, check-debug) and bench are built with the LLVM its toolchain.conf
# names (as CI, a current one), else with Debian's clang.
if [[ -n $llvm ]]; then
	clang=clang-$llvm
	need "$clang" "llc-$llvm" "llvm-strip-$llvm"
	make_args+=(CLANG="$clang" LLC="llc-$llvm" LLVM_STRIP="llvm-strip-$llvm")
fi

# In-tree builds link bpf_testmod.ko against the kernel's object directory: it must hold this commit.
kernel_opts=(-c "$config")
[[ ${targets[*]} == bench ]] || kernel_opts+=(-o)
kernel=$("$LAB_ROOT/scripts/kernel.sh" "${kernel_opts[@]}" "$commit")
# The BTF the BPF programs compile against (vmlinux.h, the kfuncs' prototypes): the kernel's own,
# or, for check-debug's suites where the base says so (DEBUG_SELFTESTS_BTF=regress), the regress
# kernel's of the same commit: a superset, with the kfuncs of subsystems that the tinyconfig-based
# debug kernel leaves out. Only the tests check-debug runs load their programs there.
btf=$kernel/vmlinux
if [[ $config == debug && $DEBUG_SELFTESTS_BTF == regress ]]; then
	btf=$("$LAB_ROOT/scripts/kernel.sh" -c regress "$commit")/vmlinux
fi
lock_build_src
if [[ $src != "$BUILD_SRC" ]] && ! git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	rm -rf "$src"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$src" "$commit"
fi
checkout_commit "$src" "$commit"
# make does not rebuild the BPF objects of another clang: an in-tree build with another one than
# the last starts afresh.
if [[ $src != "$BUILD_SRC" ]]; then
	if [[ $(cat "$src.clang" 2>/dev/null) != "$clang" ]]; then
		git -C "$src" clean -fdxq -- tools/testing/selftests/bpf
		echo "$clang" >"$src.clang"
	fi
	# Files of the base's selftests that do not build (config/<base>/selftests-unbuildable, each
	# with its reason) are out of the worktree for the build; the next checkout puts them back. The
	# test list of their directory (tests.h) is made again: make remakes it when a test is newer,
	# not when one is gone.
	for f in $unbuildable; do
		rm -f "$selftests/$f" "$(dirname "$selftests/$f")/tests.h"
	done
	# The test modules are built against the kernel's object directory, and kbuild does not build
	# them again for another kernel: their dependencies name the other one's files, which are
	# older. The debug and the regress selftests of one commit share this worktree (6.12's regress
	# selftests once got the debug kernel's bpf_testmod.ko: "section size must match the kernel's
	# built struct module size"). A build for another kernel than the last starts the modules
	# afresh: every .ko, and what kbuild left in each module's directory (one with a
	# modules.order: 6.12's bpf_testmod/ and the others, 7.3's test_kmods/).
	if [[ $(cat "$src.kernel" 2>/dev/null) != "$config $kernel" ]]; then
		find "$selftests" -name '*.ko' -delete
		find "$selftests" -name modules.order -printf '%h\n' | while read -r dir; do
			git -C "$src" clean -fdxq -- "$dir"
		done
		rm -f "$src.kernel"	# written once the modules are built and checked
	fi
fi
mkdir -p "$obj"
log=$WORK_CACHE/obj/selftests-${config}${KERNEL_OBJ_TAG:+-$KERNEL_OBJ_TAG}-build.log
# make remakes vmlinux.h only when VMLINUX_BTF is newer than it: another kernel's older vmlinux
# (the regress kernel's, say) must replace it too.
btf_stamp=$obj/.vmlinux-btf
if [[ $(cat "$btf_stamp" 2>/dev/null) != "$btf" ]]; then
	rm -f "$obj/tools/include/vmlinux.h"
	echo "$btf" >"$btf_stamp"
fi
build_logged "selftests build" "building ${targets[*]} at $(git -C "$TREE" log -1 --format='%h %s' "$commit")" "$log" \
	lab_make -C "$selftests" -j"$JOBS" "${make_args[@]}" VMLINUX_BTF="$btf" "${targets[@]}"
rm -rf "$out.tmp"
mkdir -p "$(dirname "$out")"
if [[ ${targets[*]} == bench ]]; then
	mkdir -p "$out.tmp"
	cp -r "$selftests/benchs" "$obj/bench" "$out.tmp/"
else
	cp -a "$selftests" "$out.tmp"
	printf '%s\n' "${targets[@]}" >"$out.tmp/.lab-targets"
	# Every module is the kernel's: a kernel loads no module of another release.
	release=$(cat "$(kernel_obj "$config")/include/config/kernel.release")
	bad=$(find "$out.tmp" -name '*.ko' -exec sh -c 'for m; do
		v=$(modinfo -F vermagic "$m"); [ "${v%% *}" = "$0" ] || echo "${m##*/} ($v)"; done' "$release" {} + | sort -u | xargs)
	[[ -z $bad ]] || { rm -rf "$out.tmp"; die "selftests of $(git -C "$TREE" log -1 --format=%h "$commit"): test modules of another kernel than $release: $bad"; }
	built "$out.tmp" || { rm -rf "$out.tmp"; die "selftests of $(git -C "$TREE" log -1 --format=%h "$commit"): ${targets[*]} built, but not all of them, or a flavour without its test modules"; }
	echo "$config $kernel" >"$src.kernel"
fi
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
