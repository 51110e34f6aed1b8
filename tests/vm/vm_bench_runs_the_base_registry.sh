#!/bin/bash
# make bench runs the base's registry in the VM: the lab's scripts in the guest must get BASE too
# (vm.sh passes it; without it make bench BASE=<another base> ran the default base's trigger rows,
# and failed trig-base).
# Plant: vm.sh not passing BASE to the guest (the guest then runs the default base's rows).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_bench_runs_the_base_registry() {
	local name out
	name=$(awk '$1 !~ /^#/ && NF { print $2; exit }' "$BASE_CONFIG/benchmarks")
	out=$(BENCHS=$name "$S/bench.sh" 2>&1) || { echo "$out" | tail -n 20; return 1; }
	echo "$out" | grep -E "^  $name +[0-9]" || { echo "$out" | tail -n 20; echo "no result for $name"; return 1; }
}

run_test vm_bench_runs_the_base_registry "$@"
