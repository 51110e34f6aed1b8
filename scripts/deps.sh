#!/bin/bash
# Install the Debian packages the lab needs. The one list of them lives here.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

packages=(
	build-essential bc bison flex cpio kmod libelf-dev libssl-dev dwarves	# kernel
	clang llvm libcap-dev zlib1g-dev rsync					# selftests bench
	qemu-system-x86 perl							# VM
	sparse b4 strace							# make check
	cmake libgtest-dev libbenchmark-dev					# C++ harness
	python3 python3-matplotlib python3-scipy jq				# compare
	iputils-ping iptables ethtool netcat-openbsd keyutils	# make regress: what the BPF selftests call
)
# and the LLVM that make regress builds a base's selftests with, for every base (base.conf)
for b in $(lab_bases); do
	v=$(sed -n 's/^REGRESS_LLVM=//p' "$LAB_ROOT/config/$b/base.conf")
	[[ -z $v ]] || packages+=("clang-$v" "llvm-$v")
done
missing=()
for p in "$BASE_PACKAGE" "${packages[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
((${#missing[@]})) || exit 0
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || die "apt-get update failed"
# The base is pinned: config/<base>/base.conf's version, which the series is based on. When the archive has
# moved on (Debian keeps only the newest linux-source-6.1), stop and say so: the series may well
# apply to the next 6.1.y, and ALLOW_BASE_VERSION=1 tries it (make tree names a patch that fails).
if [[ ${missing[0]} == "$BASE_PACKAGE" ]]; then
	served=$(apt-cache madison "$BASE_PACKAGE" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | xargs)
	if [[ " $served " == *" $BASE_PACKAGE_VERSION "* ]]; then
		missing[0]=$BASE_PACKAGE=$BASE_PACKAGE_VERSION
	elif [[ ${ALLOW_BASE_VERSION:-0} == 1 && -n $served ]]; then
		note "warning: apt serves $BASE_PACKAGE $served, not $BASE_PACKAGE_VERSION; installing ${served%% *} (ALLOW_BASE_VERSION=1)"
	else
		die "apt serves $BASE_PACKAGE ${served:-in no version}, not $BASE_PACKAGE_VERSION, the base of the series (config/$BASE/base.conf); ALLOW_BASE_VERSION=1 tries the served version (make tree then names any patch that does not apply)"
	fi
fi
note "installing ${missing[*]}"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || die "apt-get install failed: ${missing[*]}"
