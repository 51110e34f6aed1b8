#!/bin/bash
# What a series needs applied before it (scripts/lib/patches.sh's series_prerequisites, which make
# series, make mbox and the series tests read) is what series.conf's SERIES_PREREQUISITES says: a
# series it names needs exactly the series listed ("SERIES:" alone: none), in the order they
# apply; a series it does not name needs every series before it; a name that is not a series
# before it stops with one line. On 7.3, 03-freelist needs 01-getpgid and 02-full-update, which
# need nothing.
# Plant: series_prerequisites taking every series as one SERIES_PREREQUISITES does not name.
# Plant command: sed -i 's/{ named=1;/{ named=0;/' scripts/lib/patches.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# needs PATCHES SPEC SERIES: the names of what SERIES (a directory of PATCHES) needs under
# SERIES_PREREQUISITES=SPEC (SPEC "-": series.conf's own), on one line.
needs() {
	# shellcheck disable=SC2016 # expanded by the inner bash
	LAB_PATCHES=$1 bash -c '. "$1/lib.sh"; [[ $2 == - ]] || SERIES_PREREQUISITES=$2
		list=$(series_prerequisites "$3") || exit 1
		for d in $list; do series_name "$d"; done | xargs' - "$S" "$2" "$1/$3"
}

# expect PATCHES SPEC SERIES WANT: SERIES needs WANT under SPEC.
expect() {
	local got
	got=$(needs "$1" "$2" "$3")
	[[ $got == "$4" ]] || { echo "SERIES_PREREQUISITES='$2': $3 needs '$got', expected '$4'"; return 1; }
	echo "SERIES_PREREQUISITES='$2': $3 needs ${4:-nothing}"
}

series_prerequisites_follow_series_conf() {
	local p=$scratch/patches
	mkdir -p "$p/01-a" "$p/02-b" "$p/03-c"
	expect "$p" "" 03-c "01-a 02-b"
	expect "$p" "" 01-a ""
	expect "$p" "02-b: ; 03-c: 01-a" 02-b ""
	expect "$p" "02-b: ; 03-c: 01-a" 03-c "01-a"
	expect "$p" " 03-c : 02-b 01-a " 03-c "01-a 02-b"
	expect "$p" "03-c: 01-a" 02-b "01-a"
	expect_fail "03-c needs '04-d', which is not a series before it" needs "$p" "03-c: 04-d" 03-c
	expect_fail "02-b needs '03-c', which is not a series before it" needs "$p" "02-b: 03-c" 02-b
	expect_fail "'02-b 01-a' is not 'SERIES: NEEDED ...'" needs "$p" "02-b 01-a" 02-b
	[[ $BASE == 7.3 ]] || return 0
	expect "$LAB_ROOT/patches/7.3" - 01-getpgid ""
	expect "$LAB_ROOT/patches/7.3" - 02-full-update ""
	expect "$LAB_ROOT/patches/7.3" - 03-freelist "01-getpgid 02-full-update"
}

run_test series_prerequisites_follow_series_conf "$@"
