#!/bin/bash
# Install Debian's linux-source package at the pinned version and extract the pristine base into the cache.
#   ALLOW_BASE_VERSION=1  accept the installed version (lib.sh then names the base after it, and the
#                         tree's base commit says which one it was).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

installed_version() {
	dpkg-query -W -f='${Status} ${Version}\n' "$BASE_PACKAGE" 2>/dev/null |
		awk '$3 == "installed" { print $4 }'
}

# One run at a time on the base (apt, extraction); the lock goes with the script.
mkdir -p "$BASE_CACHE"
exec 7>"$BASE_CACHE/base.lock"
if ! flock -n 7; then
	note "waiting for another run on the base"
	flock 7
fi

version=$(installed_version)
if [[ -z $version ]]; then
	"$LAB_ROOT/scripts/deps.sh"	# installs the pinned version, or says why it cannot
	version=$(installed_version)
fi
if [[ $version != "$BASE_PACKAGE_VERSION" ]]; then
	die "$BASE_PACKAGE $version is installed, the series is based on $BASE_PACKAGE_VERSION (config/$BASE/base.conf); ALLOW_BASE_VERSION=1 uses $version (make tree then names any patch that does not apply)"
fi

if [[ -f $BASE_DIR/.extracted ]]; then
	exit 0
fi
tarball=/usr/src/$BASE_PACKAGE.tar.xz
[[ -f $tarball ]] || die "$tarball not found (is $BASE_PACKAGE installed?)"
rm -rf "$BASE_DIR.tmp"
mkdir -p "$BASE_DIR.tmp"
step "extracting $tarball" tar -xJf "$tarball" -C "$BASE_DIR.tmp" --strip-components=1
echo "$version" >"$BASE_DIR.tmp/.extracted"
rm -rf "$BASE_DIR"
mv "$BASE_DIR.tmp" "$BASE_DIR"
