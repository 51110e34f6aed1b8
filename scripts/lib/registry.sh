# The benchmark registry of the base: config/<base>/benchmarks and config/benchmarks (part of
# scripts/lib.sh).
# shellcheck shell=bash

# shellcheck disable=SC2034 # read by the scripts that source lib.sh
TRACEFS_BENCHS=trig-tp					# benchmarks of the registry that need tracefs

# registry: the benchmark registry of this base, one "family name where args" line an entry: the
# base's own rows (config/<base>/benchmarks) first, then those of every base (config/benchmarks).
registry() {
	cat "$BASE_CONFIG/benchmarks" "$LAB_ROOT/config/benchmarks" 2>/dev/null | awk '$1 !~ /^#/ && NF'
}

# registry_select WHERE [NAME_OR_FAMILY...]: the entries of the registry that can run WHERE
# (vm or host) and match one of the names or families (every entry when none is given), one
# "family name args" line each, in the registry's order.
registry_select() {
	local where=$1 family name places args want
	shift
	while read -r family name places args; do
		[[ -z $family || $family == \#* ]] && continue
		[[ ,$places, == *,$where,* ]] || continue
		if (($#)); then
			for want in "$@"; do
				[[ $want == "$name" || $want == "$family" ]] && break
			done
			[[ $want == "$name" || $want == "$family" ]] || continue
		fi
		echo "$family $name $args"
	done < <(registry)
}

# registry_unknown NAME_OR_FAMILY...: those of the arguments that are neither the name nor the
# family of any entry of the registry, wherever it runs.
registry_unknown() {
	local want
	for want in "$@"; do
		registry | awk -v w="$want" '$1 == w || $2 == w { found = 1 } END { exit !found }' ||
			echo "$want"
	done
}
