#!/bin/bash
# The pahole that encodes the BTF of the LLVM=1 kernels: fetch it into the cache if missing, and
# print the path of the command that runs it (the kernel's make takes it as PAHOLE=).
# Bookworm's dwarves 1.24 does not read all of clang's DWARF: on the 7.3 bench kernel built with
# clang-22 it printed 145 "DW_TAG_label not handled" warnings, which the gcc build does not have.
# The pahole of config/<base>/toolchain.conf (LLVM_PAHOLE, a version of Debian's pahole package,
# from the suite of LLVM_PAHOLE_APT_SOURCE: trixie's 1.30) is unpacked with the libraries of that
# suite it needs (libc6, libbpf1, libdw1t64, libelf1t64 and theirs) into $LAB_CACHE/pahole/<version>/,
# and runs through that libc's own dynamic loader, as litmus.sh runs herd7: never installed.
# It is not built from Debian's source package: the archive this lab reaches serves no source
# packages (apt-get source dwarves: 404).
#   scripts/pahole.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
check_knobs
(($# == 0)) || die "$1: no arguments taken (usage: scripts/pahole.sh; --help: what it does)"
[[ -n $LLVM_PAHOLE && -n $LLVM_PAHOLE_APT_SOURCE ]] ||
	die "config/$BASE/toolchain.conf names no LLVM_PAHOLE and LLVM_PAHOLE_APT_SOURCE"

dir=$LAB_CACHE/pahole/$LLVM_PAHOLE
wrapper=$dir/pahole
if [[ ! -x $wrapper ]]; then
	mkdir -p "$LAB_CACHE/pahole"
	# one fetch at a time; the lock goes with the script
	exec 6>"$dir.lock"
	if ! flock -n 6; then
		note "waiting for another fetch of pahole $LLVM_PAHOLE"
		flock 6
	fi
	if [[ ! -x $wrapper ]]; then
		step "fetching pahole $LLVM_PAHOLE from '$LLVM_PAHOLE_APT_SOURCE' into $dir" \
			debs_unpack "$LLVM_PAHOLE_APT_SOURCE" "$dir.tmp" "pahole=$LLVM_PAHOLE" \
			libc6 libgcc-s1 libbpf1 libdw1t64 libelf1t64 zlib1g libbz2-1.0 liblzma5 libzstd1
		libs=$dir/usr/lib/x86_64-linux-gnu
		cat >"$dir.tmp/pahole" <<WRAPPER
#!/bin/sh
# pahole $LLVM_PAHOLE with the libraries beside it, through their libc's loader (scripts/pahole.sh)
exec "$libs/ld-linux-x86-64.so.2" --library-path "$libs" "$dir/usr/bin/pahole" "\$@"
WRAPPER
		chmod +x "$dir.tmp/pahole"
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
		version=$("$wrapper" --version) || die "$wrapper does not run"
		note "pahole $version in $dir: $(paste -sd, "$dir/versions" | sed 's/,/, /g')"
	fi
fi
echo "$wrapper"
