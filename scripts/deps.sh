#!/bin/bash
# Install the Debian packages the lab needs. The one list of them lives here.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

packages=(
	"$BASE_PACKAGE"
	build-essential bc bison flex cpio kmod libelf-dev libssl-dev dwarves	# kernel
	clang llvm libcap-dev zlib1g-dev rsync					# selftests bench
	qemu-system-x86 perl							# VM
	sparse b4 strace							# make check
	cmake libgtest-dev libbenchmark-dev					# C++ harness
	python3 python3-matplotlib python3-scipy jq				# compare
)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
((${#missing[@]})) || exit 0
note "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || die "apt-get update failed"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || die "apt-get install failed: ${missing[*]}"
