#!/bin/bash
# TREE= takes the config of the base its version maps to (of the bases of its major version the
# newest not newer than it, else the oldest; or BASE=), measures SERIES_REV (default HEAD) against
# BASE_REV (default: the merge-base of SERIES_REV and its upstream, not the upstream's tip), and
# the dry runs of the measuring targets name those commits.
# Plant: the base taken as the upstream's tip.
# Plant command: sed -i 's/base=$(git -C "$top" merge-base "$series" "$rev")/base=$rev/' scripts/lib/own-tree.sh
# Plant: a 6.x tree between two bases takes the newer one's config.
# Plant command: sed -i 's/bv\[i\] == v \&\& bp\[i\] <= p/bv[i] == v/' scripts/lib/own-tree.sh
# Plant: a dry run shows stand-ins, not the tree's commits.
# Plant command: sed -i 's/if dry_run \&\& \[\[ -n \$OWN_TREE \]\]/if false/' scripts/lib/pipeline.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

own_tree_picks_base_and_revisions() {
	local t=$scratch/linux v want got base series other out line i=0
	export LAB_CACHE=$scratch/cache
	for v in "7 4 7.3" "7 0 7.3" "6 18 6.12" "6 12 6.12" "6 6 6.1" "6 1 6.1"; do
		read -r -a v <<<"$v"
		i=$((i + 1))
		own_tree "$scratch/v$i" "${v[0]}" "${v[1]}"
		got=$(TREE=$scratch/v$i "$S/lab-path.sh" BASE)
		echo "Linux ${v[0]}.${v[1]}: config/$got/"
		[[ $got == "${v[2]}" ]] || { echo "expected config/${v[2]}/"; return 1; }
	done
	[[ $(TREE=$scratch/v1 BASE=6.12 "$S/lab-path.sh" BASE) == 6.12 ]] || { echo "BASE= not taken"; return 1; }
	own_tree "$t" 7 4
	# upstream moves on after the series branched off: the base is still where it branched
	base=$(git -C "$t" rev-parse upstream) series=$(git -C "$t" rev-parse main)
	git -C "$t" checkout -q upstream
	echo more >"$t/more.c"
	git -C "$t" add more.c
	git -C "$t" -c user.name=dev -c user.email=dev@localhost commit -q -m more
	other=$(git -C "$t" rev-parse HEAD)
	git -C "$t" checkout -q main
	out=$(cd "$LAB_ROOT" && TREE=$t make -s -n compare TRIALS=1 CLOCKS=icount 2>&1) || { echo "$out"; return 1; }
	for line in "kernel.sh -c bench $base)" "kernel.sh -c bench $series)" "bench-build.sh -c bench $series)"; do
		grep -qF -- "$line" <<<"$out" || { echo "$out"; echo "make -n compare: no '$line'"; return 1; }
	done
	grep -qF "$other" <<<"$out" && { echo "the upstream's tip measured"; return 1; }
	echo "make -n compare: base ${base:0:12}, series ${series:0:12}"
	out=$(cd "$LAB_ROOT" && TREE=$t SERIES_REV=upstream BASE_REV=main make -s -n regress SUITES=test_maps 2>&1) ||
		{ echo "$out"; return 1; }
	for line in "kernel.sh -c regress $series)" "kernel.sh -c regress $other)"; do
		grep -qF -- "$line" <<<"$out" || { echo "$out"; echo "make -n regress: no '$line'"; return 1; }
	done
	echo "make -n regress SERIES_REV=upstream BASE_REV=main: base ${series:0:12}, series ${other:0:12}"
}

run_test own_tree_picks_base_and_revisions "$@"
