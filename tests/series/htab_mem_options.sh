#!/bin/bash
# bench htab-mem's option errors, on the host (the rest of tests/bench/test_bench_htab_mem.sh needs cgroup v2
# with memcg, which a host may lack: vm/vm_htab_mem_leaves_nothing_behind runs it in the VM). For
# the bases whose series carries its own htab-mem.
# Plant: htab-mem accepting an unknown --use-case (its validate() check removed in the series'
# htab-mem patch).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

htab_mem_options() {
	local dir
	dir=$(bench_dir)
	BENCH=$dir/bench "$bench_tests/test_bench_htab_mem.sh" options
}

run_test htab_mem_options "$@"
