#!/bin/bash
# The bench of HEAD: it runs and knows every benchmark of the base's registry.
# Plant: a registry row (config/benchmarks) naming a benchmark that bench --list does not know.
# Plant command: echo 'trigger trig-planted vm' >>config/benchmarks
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

bench_builds() {
	local b names
	b=$("$S/bench-build.sh" HEAD)
	"$b/bench" --list >"$scratch/bench-list" 2>&1 || { cat "$scratch/bench-list"; return 1; }
	# the benchmark of a registry row: the first word of its arguments that is not an option or
	# an option's value
	names=$(registry | awk '{ for (i = 4; i <= NF; i++) { if ($i ~ /^-/) { if ($i !~ /^-p/ && $i != "--preallocated") i++; continue } print $i; break } }' | sort -u)
	echo "registry: $(xargs <<<"$names")"
	for name in $names; do
		grep -qx -- "- $name" "$scratch/bench-list" || { echo "bench --list does not name $name"; return 1; }
	done
	[[ -x $b/bench && -d $b/benchs ]]
}

run_test bench_builds "$@"
