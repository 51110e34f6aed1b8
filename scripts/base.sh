#!/bin/bash
# Fetch the base's Debian source package at the pinned version and extract the pristine kernel
# into the cache (config/<base>/base.conf: package, version, and the archive suite serving it).
# apt gets a private configuration in the cache ($LAB_CACHE/apt/<hash of the source line>): its
# own sources.list, lists and package cache, so the machine's apt sources and its installed
# packages are never touched. apt verifies the suite's Release file against the archive keyring
# of the source line and the .deb against the Release's hashes; dpkg-deb -x unpacks it without
# installing it.
#   ALLOW_BASE_VERSION=1  take the newest version the suite serves when the pinned one is gone
#                         (lib.sh then names the base after it; make tree names a patch that fails).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
check_knobs
(($# == 0)) || die "$1: no arguments taken (usage: [BASE=<base>] scripts/base.sh; --help: what it does)"

# One run at a time on the base (apt, extraction); the lock goes with the script.
mkdir -p "$BASE_CACHE"
exec 7>"$BASE_CACHE/base.lock"
if ! flock -n 7; then
	note "waiting for another run on the base"
	flock 7
fi
[[ ! -f $BASE_DIR/.extracted ]] || exit 0

need apt-get apt-cache dpkg-deb tar xz
# The private apt configuration: one directory per source line (lib/debs.sh).
debs_apt_opts "$BASE_APT_SOURCE"

tmp=$(mktemp -d "$BASE_CACHE/base-fetch.XXXXXX")
cleanup() { rm -rf "$tmp" "$BASE_DIR.tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# The lists are refreshed once per lab cache; a pinned version that the lists do not have
# refreshes them again before giving up.
served_versions() {
	apt-cache "${apt_opts[@]}" madison "$BASE_PACKAGE" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }'
}
update_lists() {
	local why
	apt-get "${apt_opts[@]}" -q update >"$tmp/update.log" 2>&1 || true
	# apt refuses a suite whose Release is unsigned or signed by a key the source's keyring lacks
	# (E:), and only warns (W:) about some other failures: the lab takes neither.
	why=$(grep -m1 -E '^E: Failed to fetch' "$tmp/update.log") &&
		die "apt could not fetch '$BASE_APT_SOURCE' (config/$BASE/base.conf): ${why#E: Failed to fetch }"
	why=$(grep -m1 -oE 'NO_PUBKEY [0-9A-F]+|is not signed|EXPKEYSIG [0-9A-F]+|BADSIG [0-9A-F]+' "$tmp/update.log") &&
		die "apt could not verify '$BASE_APT_SOURCE' (config/$BASE/base.conf): $why"
	why=$(grep -m1 -E '^(E|W): ' "$tmp/update.log") &&
		die "apt could not fetch '$BASE_APT_SOURCE' (config/$BASE/base.conf): ${why#?: }"
	date +%s >"$apt_dir/updated"
}
[[ -f $apt_dir/updated ]] || step "apt-get update of '$BASE_APT_SOURCE' (private configuration in $apt_dir)" update_lists
served=$(served_versions | xargs)
if [[ " $served " != *" $BASE_PACKAGE_VERSION "* ]]; then
	update_lists
	served=$(served_versions | xargs)
fi
version=$BASE_PACKAGE_VERSION
if [[ " $served " != *" $version "* ]]; then
	if [[ ${ALLOW_BASE_VERSION:-0} == 1 && -n $served ]]; then
		version=${served%% *}
		note "warning: '$BASE_APT_SOURCE' serves $BASE_PACKAGE $served, not $BASE_PACKAGE_VERSION; using $version (ALLOW_BASE_VERSION=1)"
	else
		die "'$BASE_APT_SOURCE' serves $BASE_PACKAGE ${served:-in no version}, not $BASE_PACKAGE_VERSION, the base of the series (config/$BASE/base.conf); ALLOW_BASE_VERSION=1 tries the served version (make tree then names any patch that does not apply)"
	fi
fi
# lib.sh names the base after this version from now on, for ALLOW_BASE_VERSION=1 runs.
mkdir -p "$BASE_CACHE/base"
[[ $version == "$BASE_PACKAGE_VERSION" ]] || echo "$version" >"$BASE_CACHE/base/allowed-version"
dir=$BASE_CACHE/base/linux-$version

fetch() {
	(cd "$tmp" && apt-get "${apt_opts[@]}" -q download "$BASE_PACKAGE=$version") >"$tmp/download.log" 2>&1 ||
		{ tail -n 3 "$tmp/download.log" >&2; return 1; }
}
step "downloading $BASE_PACKAGE $version" fetch || die "apt-get download $BASE_PACKAGE=$version failed"
deb=$(find "$tmp" -maxdepth 1 -name "${BASE_PACKAGE}_*.deb" -print -quit)
[[ -n $deb ]] || die "apt-get download left no ${BASE_PACKAGE}_*.deb"
got=$(dpkg-deb -f "$deb" Package Version | awk '{ print $2 }' | paste -sd' ')
[[ $got == "$BASE_PACKAGE $version" ]] || die "downloaded package is '$got', expected '$BASE_PACKAGE $version'"
dpkg-deb -x "$deb" "$tmp/pkg"
rm -f "$deb"
tarball=$(find "$tmp/pkg/usr/src" -maxdepth 1 -name "$BASE_PACKAGE.tar.*" -print -quit)
[[ -n $tarball ]] || die "$BASE_PACKAGE $version has no /usr/src/$BASE_PACKAGE.tar.*"
BASE_DIR=$dir
rm -rf "$BASE_DIR.tmp"
mkdir -p "$BASE_DIR.tmp"
step "extracting ${tarball##*/}" tar -xf "$tarball" -C "$BASE_DIR.tmp" --strip-components=1
echo "$version" >"$BASE_DIR.tmp/.extracted"
rm -rf "$BASE_DIR"
mv "$BASE_DIR.tmp" "$BASE_DIR"
