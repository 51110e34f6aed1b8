#!/bin/bash
# The base is pinned and verified: scripts/base.sh fetches the package with a private apt
# configuration (simulated here: stand-in apt-get and apt-cache that serve another version, no
# version at all, or a suite whose signature does not verify). Each stops with one error line
# naming the problem, downloads nothing and leaves no base directory or temporary directory.
# Plant: base.sh downloading whatever version apt serves (the pin dropped):
# Plant command: sed -i 's/^\tif \[\[ \${ALLOW_BASE_VERSION:-0} == 1 && -n \$served \]\]; then$/\tif [[ -n $served ]]; then/' scripts/base.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# fake_apt DIR VERSIONS UPDATE_OUTPUT: apt-get and apt-cache stand-ins in DIR; apt-cache madison
# lists VERSIONS of the base's package, apt-get update prints UPDATE_OUTPUT (and fails if it has
# an E: line), apt-get download is logged and fails.
fake_apt() {
	local dir=$1 versions=$2 update=$3 v
	mkdir -p "$dir"
	: >"$dir/calls"
	# shellcheck disable=SC2016 # the stand-in's own expansions, written as they are
	{
		echo '#!/bin/bash'
		echo "echo \"apt-get \$*\" >>'$dir/calls'"
		echo 'for a in "$@"; do case $a in update)'
		printf 'printf "%%s\\n" %q\n' "$update"
		echo "grep -q '^E:' <<<$(printf %q "$update") && exit 100; exit 0 ;;"
		echo 'download) exit 100 ;; esac; done'
	} >"$dir/apt-get"
	{
		echo '#!/bin/bash'
		for v in $versions; do
			echo "echo ' $BASE_PACKAGE | $v | http://deb.debian.org/debian trixie-backports/main amd64 Packages'"
		done
	} >"$dir/apt-cache"
	chmod +x "$dir/apt-get" "$dir/apt-cache"
}

# fetch_fails NAME REGEX: base.sh with the stand-ins of NAME fails with one error line matching
# REGEX, never downloads, and leaves neither the base nor a temporary directory in its cache.
fetch_fails() {
	local fake=$scratch/$1 cache=$scratch/$1-cache out rc=0 errors
	out=$(env PATH="$fake:$PATH" LAB_CACHE="$cache" "$S/base.sh" 2>&1) || rc=$?
	echo "$1: $out"
	((rc != 0)) || { echo "$1: base.sh exited 0"; return 1; }
	errors=$(grep -c '^error: ' <<<"$out" || true)
	((errors == 1)) || { echo "$1: $errors error lines, expected one"; return 1; }
	grep -qE "^error: $2" <<<"$out" || { echo "$1: expected /error: $2/"; return 1; }
	! grep -q ' download ' "$fake/calls" || { echo "$1: base.sh downloaded the package"; return 1; }
	[[ -z $(find "$cache/$BASE" -mindepth 1 -maxdepth 2 \( -name 'linux-*' -o -name 'base-fetch.*' \) 2>/dev/null) ]] ||
		{ echo "$1: left behind:"; find "$cache/$BASE" -mindepth 1 -maxdepth 2; return 1; }
}

# re TEXT: TEXT as an extended regex that matches it literally (versions have + and ~)
re() {
	sed 's/[][\.*^$+?(){}|]/\\&/g' <<<"$1"
}

base_version_is_pinned() {
	local other=999.0.0-1 pkg pin
	pkg=$(re "$BASE_PACKAGE") pin=$(re "$BASE_PACKAGE_VERSION")
	fake_apt "$scratch/other-version" "$other" ''
	fetch_fails other-version ".* serves $pkg $other, not $pin, the base of the series .*ALLOW_BASE_VERSION=1"
	fake_apt "$scratch/not-served" '' ''
	fetch_fails not-served ".* serves $pkg in no version, not $pin"
	fake_apt "$scratch/unsigned" "$BASE_PACKAGE_VERSION" \
		"W: GPG error: http://deb.debian.org/debian trixie-backports InRelease: The following signatures couldn't be verified because the public key is not available: NO_PUBKEY 0123456789ABCDEF
E: The repository 'http://deb.debian.org/debian trixie-backports InRelease' is not signed."
	fetch_fails unsigned "apt could not verify .*: NO_PUBKEY 0123456789ABCDEF$"
}

run_test base_version_is_pinned "$@"
