#!/bin/bash
# The kernel of HEAD (usually from the cache): what kernel.sh hands out must be that kernel, a
# bzImage of the tree's version, with BTF and the config fragment's options.
# Plant: config/bench.config asking for an option the kernel cannot have (kernel.sh then names it).
# Plant command: echo CONFIG_PLANTED_NO_SUCH_OPTION=y >>config/bench.config
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

kernel_builds() {
	local k version
	k=$("$S/kernel.sh" HEAD)
	version=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' <(git -C "$TREE" show HEAD:Makefile) | paste -sd.)
	echo "$k: $(file -b "$k/bzImage")"
	file -b "$k/bzImage" | grep -q "Linux kernel x86 boot executable bzImage, version $version" ||
		{ echo "not a bzImage of $version"; return 1; }
	grep -q ' \.BTF ' < <(readelf -S "$k/vmlinux") || { echo "vmlinux has no BTF"; return 1; }
	grep -v '^#' "$LAB_ROOT/config/bench.config" | grep '=y$' | while read -r opt; do
		grep -qx "$opt" "$k/.config" || { echo "$opt missing from $k/.config"; exit 1; }
	done
}

run_test kernel_builds "$@"
