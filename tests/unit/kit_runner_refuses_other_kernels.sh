#!/bin/bash
# The kit's run-kit.sh runs on the kit's base or series kernel only: on any other (here the host's,
# whose build id is neither of the fake kit's) it stops with one line naming the kernel it found
# and the two it expects, before it runs bench or makes a record. It refuses bad options, an
# unpacked kit that lacks its files, and more producers than online CPUs, with one line each.
# Plant: run-kit.sh taking any kernel for the series.
# Plant command: sed -i 's/^release=$(uname -r) id=$(build_id) which=.*$/release=$(uname -r) id=$(build_id) which=series/' scripts/guest/run-kit.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

kit_runner_refuses_other_kernels() {
	local kit out rc=0
	kit=$(fake_kit "$scratch/lab" aaaa0001 bbbb0002)
	out=$("$kit/run-kit.sh" -w1 -d1 -o "$scratch/records" 2>&1) || rc=$?
	echo "$out"
	((rc != 0)) || { echo "run-kit.sh ran on the host's kernel $(uname -r)"; return 1; }
	[[ $(wc -l <<<"$out") == 1 && $out == "error: this kernel (uname -r $(uname -r), build id "*") is neither the kit's base (build id aaaa0001) nor its series (bbbb0002): boot kernels/base/bzImage or kernels/series/bzImage" ]] ||
		{ echo "not the one line naming the kernel and the kit's two"; return 1; }
	[[ -z $(find "$scratch/records" -mindepth 1 -not -type d 2>/dev/null) && -z $(find "$scratch/records" -name '.new-*' 2>/dev/null) ]] ||
		{ echo "a refused run left a record or its scratch directory"; return 1; }
	expect_fail "^error: -x: no such option" "$kit/run-kit.sh" -x
	expect_fail "^error: -p 9999: expected 2 to [0-9]+ \(the online CPUs\)" "$kit/run-kit.sh" -p 9999
	"$kit/run-kit.sh" --help | grep -q "^  ./run-kit.sh \[-p PRODUCERS\]" || { echo "--help: no usage"; return 1; }
	rm "$kit/rows"
	expect_fail "^error: .*/rows: missing" "$kit/run-kit.sh"
}

run_test kit_runner_refuses_other_kernels "$@"
