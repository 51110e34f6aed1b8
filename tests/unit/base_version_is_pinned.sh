#!/bin/bash
# The base is pinned: when apt serves another version of the package (simulated: stand-in apt-get,
# apt-cache and dpkg-query), deps.sh and base.sh stop with one line naming both versions and the
# knob, and install nothing.
# Plant: deps.sh installing whatever version apt serves (the pin dropped):
# Plant command: sed -i 's/^\(\t\)else$/\1elif false; then/' scripts/deps.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

base_version_is_pinned() {
	local fake=$scratch/fake-apt fake_version=999.0.0-1
	mkdir -p "$fake"
	printf '#!/bin/sh\necho "apt-get $*" >>"%s/apt-get.log"\n' "$fake" >"$fake/apt-get"
	printf '#!/bin/sh\necho " %s | %s | http://deb.debian.org/debian bookworm/main amd64 Packages"\n' \
		"$BASE_PACKAGE" "$fake_version" >"$fake/apt-cache"
	printf '#!/bin/sh\nexit 1\n' >"$fake/dpkg-query"	# nothing installed
	chmod +x "$fake"/*
	expect_fail "^error: apt serves $BASE_PACKAGE $fake_version, not $BASE_PACKAGE_VERSION, the base of the series .*ALLOW_BASE_VERSION=1" \
		env PATH="$fake:$PATH" "$S/deps.sh"
	! grep install "$fake/apt-get.log" || { echo "deps.sh installed something"; return 1; }
	printf '#!/bin/sh\necho "install ok installed %s"\n' "$fake_version" >"$fake/dpkg-query"	# another version installed
	expect_fail "^error: $BASE_PACKAGE $fake_version is installed, the series is based on $BASE_PACKAGE_VERSION .*ALLOW_BASE_VERSION=1" \
		env PATH="$fake:$PATH" "$S/base.sh"
}

run_test base_version_is_pinned "$@"
