#!/bin/bash
# Build a kernel for one commit of the tree, incrementally, and print the directory holding its
# bzImage, vmlinux and .config.
#   scripts/kernel.sh [-c bench|selftests|debug] <commit-ish>
# bench: the benchmark kernel; selftests: + what test_progs/test_maps need; debug: + KCSAN, lockdep
# All commits share one worktree and one object directory per config: switching variants rebuilds only
# the files that differ, which on 2 cores is minutes instead of a 12-minute build per variant.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

config=bench
while getopts c: opt; do
	case $opt in
	c) config=$OPTARG ;;
	*) die "usage: kernel.sh [-c bench|selftests|debug] <commit-ish>" ;;
	esac
done
shift $((OPTIND - 1))
[[ $# == 1 ]] || die "usage: kernel.sh [-c bench|selftests|debug] <commit-ish>"

# Each step adds a fragment to the one before; config/<base>/<name>.config, where the base has one,
# follows the shared config/<name>.config with that base's own options.
case $config in
bench) steps=(bench) ;;
selftests) steps=(bench selftests) ;;
debug) steps=(bench selftests debug) ;;
*) die "unknown kernel config '$config' (bench, selftests or debug)" ;;
esac
fragments=()
for s in "${steps[@]}"; do
	fragments+=("$LAB_ROOT/config/$s.config")
	[[ ! -f $BASE_CONFIG/$s.config ]] || fragments+=("$BASE_CONFIG/$s.config")
done

commit=$(tree_commit "$1")
# The build is of a commit: say so when the developer's edits in the tree are not in it.
if [[ $commit == $(git -C "$TREE" rev-parse HEAD) && -n $(git -C "$TREE" status --porcelain -uno | head -n1) ]]; then
	note "warning: $TREE has uncommitted changes; this builds the committed HEAD without them (commit them to build them)"
fi
config_hash=$(cat "${fragments[@]}" | sha1sum | cut -c1-12)
# Keyed by the tree without tools/: commits that change only tools/ share one kernel.
kernel_tree=$(git -C "$TREE" ls-tree "$commit" | grep -v $'\ttools$' | sha1sum | cut -c1-12)
out=$KERNELS/$config-$kernel_tree-$config_hash
if [[ -f $out/bzImage ]]; then
	echo "$out"
	exit 0
fi
need gcc make flex bison bc pahole
lock_build_src

obj=$BASE_CACHE/obj/$config
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
	lab_make -C "$BUILD_SRC" O="$obj" ARCH=x86_64 -j"$JOBS" "$@"
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

if [[ $(cat "$obj/.lab-config-hash" 2>/dev/null) != "$config_hash" ]]; then
	step "configuring $config kernel (tinyconfig + ${fragments[*]##*/})" make_config
fi
log=$obj/build.log
# modules: Module.symvers and module.lds, which out-of-tree modules (bpf_testmod.ko) link against.
build() {
	kmake bzImage modules >"$log" 2>&1
}
if ! step "building $config kernel at $(git -C "$TREE" log -1 --format='%h %s' "$commit") (log: $log)" build; then
	grep -E 'error|Error' "$log" | head -n 20 >&2
	die "kernel build failed, see $log"
fi
mkdir -p "$out.tmp"
cp "$obj/arch/x86/boot/bzImage" "$obj/vmlinux" "$obj/.config" "$out.tmp/"
git -C "$TREE" log -1 --format='%H %s' "$commit" >"$out.tmp/commit"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
