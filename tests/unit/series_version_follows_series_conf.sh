#!/bin/bash
# The subject prefix a series is written with (scripts/lib/patches.sh's series_format_opts, which
# make series and make mbox pass to git format-patch) carries the version series.conf's
# SERIES_VERSIONS gives that series ("PATCH bpf-next v6"), and none for a series it does not name;
# a version that is not a number >= 2 stops with one line. On 7.3, 03-freelist's patches are v6
# and the others are first postings, subject by subject.
# Plant: series_format_opts dropping the version.
# Plant command: sed -i 's/\${v:+ v\$v}//' scripts/lib/patches.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# prefix PATCHES SPEC SERIES: the subject prefix of SERIES under SERIES_VERSIONS=SPEC.
prefix() {
	# shellcheck disable=SC2016 # expanded by the inner bash
	LAB_PATCHES=$1 bash -c '. "$1/lib.sh"; SERIES_VERSIONS=$2 SUBJECT_PREFIX="PATCH bpf-next"
		opts=$(series_format_opts "$3") || exit 1
		sed -n "s/^--subject-prefix=//p" <<<"$opts"' - "$S" "$2" "$1/$3"
}

expect() {
	local got
	got=$(prefix "$1" "$2" "$3")
	[[ $got == "$4" ]] || { echo "SERIES_VERSIONS='$2': $3 is '$got', expected '$4'"; return 1; }
	echo "SERIES_VERSIONS='$2': $3 is '$4'"
}

series_version_follows_series_conf() {
	local p=$scratch/patches f want
	mkdir -p "$p/01-a" "$p/02-b"
	expect "$p" "" 02-b "PATCH bpf-next"
	expect "$p" "02-b: 6" 02-b "PATCH bpf-next v6"
	expect "$p" " 01-a : 2 ; 02-b: 3" 01-a "PATCH bpf-next v2"
	expect "$p" "02-b: 6" 01-a "PATCH bpf-next"
	expect_fail "'02-b: 1' is not 'SERIES: N' with N >= 2" prefix "$p" "02-b: 1" 02-b
	expect_fail "'02-b: six' is not 'SERIES: N' with N >= 2" prefix "$p" "02-b: six" 02-b
	[[ $BASE == 7.3 ]] || return 0
	for f in "$LAB_ROOT"/patches/7.3/*/0*.patch; do
		want='PATCH bpf-next'
		[[ $f != */03-freelist/* ]] || want='PATCH bpf-next v6'
		grep -qE "^Subject: \\[$want( [0-9]+/[0-9]+)?\\]" "$f" ||
			{ echo "${f#"$LAB_ROOT"/}: its subject is not [$want N/M]"; return 1; }
	done
	echo "patches/7.3: 03-freelist's subjects are v6, the others' have no version"
}

run_test series_version_follows_series_conf "$@"
