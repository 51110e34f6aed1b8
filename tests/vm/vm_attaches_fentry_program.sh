#!/bin/bash
# The series' bench attaches an fentry program in the VM (bench trig-fentry prints its Summary):
# the kernel has BTF and the bench its skeletons.
# Plant: a benchmark kernel config without BTF (CONFIG_DEBUG_INFO_BTF dropped from config/bench.config).
# Plant command: sed -i '/^CONFIG_DEBUG_INFO_BTF=y/d' config/bench.config
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_attaches_fentry_program() {
	local bench_dir out
	bench_dir=$("$S/bench-build.sh" HEAD)
	out=$(vm -- "cd $bench_dir && ./bench -w1 -d1 trig-fentry")
	echo "$out"
	python3 "$S/readout.py" benchout rate -m hits <<<"$out" >/dev/null
}

run_test vm_attaches_fentry_program "$@"
