#!/bin/bash
# Build a kernel for one commit of the tree, incrementally, and print the directory holding its
# bzImage, vmlinux and .config.
#   scripts/kernel.sh [-c bench|selftests|debug|regress] [-o] <commit-ish>
# bench: the benchmark kernel; selftests: + what test_progs/test_maps need; debug: + KCSAN, lockdep;
# regress: the BPF selftests' own config (tools/testing/selftests/bpf/config + config.x86_64 of the
# commit) merged the way BPF CI does, onto Kconfig defaults, + config/regress.config.
# -o: the object directory must hold this commit's build afterwards (out-of-tree modules such as
# bpf_testmod.ko are built against it), even when the kernel itself is cached.
# -n: print the directory the kernel is (or would be) in, build nothing.
# All commits share one worktree and one object directory per config: switching variants rebuilds only
# the files that differ, which on 2 cores is minutes instead of a 12-minute build per variant.
# LLVM=1: BPF CI's second toolchain, clang and lld of the base's KERNEL_LLVM
# (config/<base>/toolchain.conf; 7.3: clang-22 and lld-22 from bookworm-security, make deps), the
# BTF made by scripts/pahole.sh's pahole (trixie's 1.30: bookworm's 1.24 does not read all of
# clang's DWARF), and the selftests' userspace and test modules built against that kernel too. An
# LLVM build never shares a kernel, an object directory or a selftests build with gcc
# (bench-llvm22-pahole1.30-1-..., obj/bench-llvm22); scripts/btf-check.sh compares the two
# kernels' BTF warnings. On a base that names no KERNEL_LLVM, LLVM=1 stops with one line.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs
# TREE=: the lab's clone of it, which this reads and makes its worktrees from (scripts/tree.sh)
[[ -z $OWN_TREE ]] || git -C "$TREE" rev-parse -q --git-dir >/dev/null 2>&1 || "$LAB_ROOT/scripts/tree.sh"

usage="usage: kernel.sh [-c bench|selftests|debug|regress] [-o] [-n] <commit-ish>"
config=bench need_obj=0 name_only=0
while getopts :c:on opt; do
	case $opt in
	c) config=$OPTARG ;;
	o) need_obj=1 ;;
	n) name_only=1 ;;
	*) bad_option "$opt" "$OPTARG" "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[[ $# == 1 ]] || die "$usage"

# Each step adds a fragment to the one before; config/<base>/<name>.config, where the base has one,
# follows the shared config/<name>.config with that base's own options.
case $config in
bench) steps=(bench) ;;
selftests) steps=(bench selftests) ;;
debug) steps=(bench selftests debug) ;;
regress) steps=(regress) ;;
*) die "unknown kernel config '$config' (bench, selftests, debug or regress)" ;;
esac
fragments=()
for s in "${steps[@]}"; do
	fragments+=("$LAB_ROOT/config/$s.config")
	[[ ! -f $BASE_CONFIG/$s.config ]] || fragments+=("$BASE_CONFIG/$s.config")
done

commit=$(tree_commit "$1")
# The build is of a commit: say so when the developer's edits in the tree are not in it.
if [[ -z $OWN_TREE && $commit == $(git -C "$TREE" rev-parse HEAD) && -n $(git -C "$TREE" status --porcelain -uno | head -n1) ]]; then
	note "warning: $TREE has uncommitted changes; this builds the committed HEAD without them (commit them to build them)"
fi
# The regress kernel starts from the commit's own selftests config, as BPF CI does, in the order of
# its vmtest.sh: config, config.vm where the commit has it (6.12: 9p, virtio), config.x86_64.
ci_fragments=()
if [[ $config == regress ]]; then
	ci_fragments=(tools/testing/selftests/bpf/config)
	! git -C "$TREE" cat-file -e "$commit:tools/testing/selftests/bpf/config.vm" 2>/dev/null ||
		ci_fragments+=(tools/testing/selftests/bpf/config.vm)
	ci_fragments+=(tools/testing/selftests/bpf/config.x86_64)
fi
ci_config() {
	local f
	for f in "${ci_fragments[@]}"; do
		git -C "$TREE" show "$commit:$f" || die "$f: not in commit $commit"
	done
}
config_hash=$({ ci_config; cat "${fragments[@]}"; } | sha1sum | cut -c1-12)
# Keyed by the tree without tools/: commits that change only tools/ share one kernel.
kernel_tree=$(git -C "$TREE" ls-tree "$commit" | grep -v $'\ttools$' | sha1sum | cut -c1-12)
# The toolchain is part of the key (LLVM=1: bench-llvm22-pahole1.30-1-...), and its compiler has
# an object directory of its own (obj/bench-llvm22): a gcc and an LLVM build never share one.
out=$KERNELS/$config${KERNEL_TOOLCHAIN:+-$KERNEL_TOOLCHAIN}-$kernel_tree-$config_hash
obj=$(kernel_obj "$config")
if ((name_only)); then
	echo "$out"
	exit 0
fi
if [[ -f $out/bzImage ]] && { ((!need_obj)) || [[ $(cat "$obj/.lab-kernel" 2>/dev/null) == "$out" ]]; }; then
	echo "$out"
	exit 0
fi
need make flex bison bc pahole
if [[ -n $KERNEL_TOOLCHAIN ]]; then
	need "clang-$KERNEL_LLVM" "ld.lld-$KERNEL_LLVM" "llvm-ar-$KERNEL_LLVM" "llvm-nm-$KERNEL_LLVM" "llvm-objcopy-$KERNEL_LLVM"
	[[ -z $KERNEL_PAHOLE || -x $KERNEL_PAHOLE ]] || "$LAB_ROOT/scripts/pahole.sh" >/dev/null
else
	need gcc
fi
lock_build_src

mkdir -p "$obj"
if ! git -C "$BUILD_SRC" rev-parse --git-dir >/dev/null 2>&1; then
	rm -rf "$BUILD_SRC"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$BUILD_SRC" "$commit"
fi
checkout_commit "$BUILD_SRC" "$commit"
[[ -f $BUILD_SRC/Makefile ]] ||
	die "$BUILD_SRC is not a complete checkout (made from a sparse tree?): remove it and run again"

kmake() {
	lab_make -C "$BUILD_SRC" O="$obj" ARCH=x86_64 -j"$JOBS" "${KERNEL_MAKE_ARGS[@]}" "$@"
}

check_fragment() {
	local frag line name dropped=()
	for frag in "${fragments[@]}"; do
		while read -r line; do
			[[ $line =~ ^CONFIG_ ]] || continue
			name=${line%%=*}
			if [[ $line == *=n ]]; then
				grep -qx "# $name is not set" "$obj/.config" || dropped+=("$line")
			else
				grep -qx "$line" "$obj/.config" || dropped+=("$line")
			fi
		done <"$frag"
	done
	((${#dropped[@]} == 0)) || die "config options dropped by olddefconfig: ${dropped[*]}"
}

# (step runs it in an `||` list, where errexit is off: each failure returns by hand)
make_config() {
	kmake -s tinyconfig >/dev/null || return
	"$BUILD_SRC/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${fragments[@]}" >/dev/null ||
		return
	kmake -s olddefconfig >/dev/null || return
	check_fragment
	echo "$config_hash" >"$obj/.lab-config-hash"
}

# The regress kernel: merge_config.sh without -m is `make alldefconfig` with the fragments as
# KCONFIG_ALLCONFIG, i.e. BPF CI's cat of the fragments + olddefconfig. Options that do not survive
# are expected, each with its reason, in config/<base>/regress-dropped; any other is an error, and
# so is a listed option that now survives (the list would be stale).
make_regress_config() {
	local dropped_file=$obj/regress-dropped expected=$BASE_CONFIG/regress-dropped unexpected stale
	ci_config >"$obj/ci.config"
	rm -f "$obj/.config"
	# (its make reads the toolchain from the environment: LLVM=-N, or none for gcc)
	(cd "$BUILD_SRC" && env -u MAKELEVEL -u MAKEFLAGS -u LLVM ARCH=x86_64 "${KERNEL_MAKE_ARGS[@]}" \
		scripts/kconfig/merge_config.sh -O "$obj" "$obj/ci.config" "${fragments[@]}") >"$obj/merge.log" 2>&1 ||
		{ tail -n 20 "$obj/merge.log" >&2; return 1; }
	# (merge_config.sh's own "Value requested ... not in final .config" also names an option that
	# the fragments set twice: 6.12's config.x86_64 repeats some of config's.)
	config_dropped "$obj/.config" "$obj/ci.config" "${fragments[@]}" >"$dropped_file" || return 1
	[[ -f $expected ]] || { echo "$expected: missing; dropped: $(paste -sd' ' "$dropped_file")" >&2; return 1; }
	sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\).*/\1/p' "$expected" | sort -u >"$dropped_file.expected"
	unexpected=$(comm -23 "$dropped_file" "$dropped_file.expected")
	stale=$(comm -13 "$dropped_file" "$dropped_file.expected")
	[[ -z $unexpected ]] || { echo "options dropped by alldefconfig, not in $expected: $(xargs <<<"$unexpected")" >&2; return 1; }
	[[ -z $stale ]] || { echo "$expected lists options that are no longer dropped: $(xargs <<<"$stale")" >&2; return 1; }
	echo "$config_hash" >"$obj/.lab-config-hash"
}

if [[ $(cat "$obj/.lab-config-hash" 2>/dev/null) != "$config_hash" ]]; then
	if [[ $config == regress ]]; then
		step "configuring regress kernel (the commit's selftests ${ci_fragments[*]##*/} + ${fragments[*]#"$LAB_ROOT"/}, alldefconfig)" make_regress_config
	else
		step "configuring $config kernel (tinyconfig + ${fragments[*]#"$LAB_ROOT"/})" make_config
	fi
fi
log=$obj/build.log
# modules: Module.symvers and module.lds, which out-of-tree modules (bpf_testmod.ko) link against.
build_logged "kernel build" "building $config kernel at $(git -C "$TREE" log -1 --format='%h %s' "$commit")" "$log" \
	kmake bzImage modules
mkdir -p "$out.tmp"
cp "$obj/arch/x86/boot/bzImage" "$obj/vmlinux" "$obj/.config" "$out.tmp/"
# What pahole and resolve_btfids said while they made vmlinux's BTF, kept with the kernel as
# btf-warnings (scripts/btf-check.sh compares the LLVM=1 kernel's with gcc's): the lines of the
# build log that are neither kbuild's progress nor make's, from the BTF step of vmlinux on (none
# when this build did not link vmlinux: then the file is not written).
if grep -q '^  BTF *\.tmp_vmlinux' "$log"; then
	sed -n '/^  BTF *\.tmp_vmlinux/,$p' "$log" |
		grep -vE '^  [A-Z][A-Z0-9_]*( \[M\])? +[^ ]|^make(\[[0-9]+\])?: (Entering|Leaving) directory|^Kernel: .* is ready' \
		>"$out.tmp/btf-warnings" || true
fi
git -C "$TREE" log -1 --format='%H %s' "$commit" >"$out.tmp/commit"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out" >"$obj/.lab-kernel"
echo "$out"
