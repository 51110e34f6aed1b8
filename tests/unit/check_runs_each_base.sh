#!/bin/bash
# make check runs the unit tier once and every base's tests (config/<base>/tests) on that base,
# named <base>/<tier>/<name>; BASE=<base> runs only that base's (a check.sh that took the requested
# base for the default one once ran all the lab's tests on the second base, and failed those of
# the first base's patches). Every line of every base's list names a test that exists, and every test of the
# lab, series, vm and regress tiers runs on some base. The lines marked slow run in make check-slow
# (-t slow), never in make check.
# Plant: the runner ignoring BASE (every base's tests run whatever BASE says).
# Plant command: sed -i 's/^requested_base=\${BASE:-}$/requested_base=/' scripts/check.sh
# Plant: the runner ignoring the slow mark (an LTS kernel build back in make check).
# Plant command: sed -i 's/^\t\t\ttier=slow$/\t\t\ttier=${test%%\/*}/' scripts/check.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

check_runs_each_base() {
	local all b only f listed
	unset LLVM	# every base (LLVM=1 runs only those that name a KERNEL_LLVM)
	local check slow marked
	all=$(env -u BASE "$S/check.sh" -l -t unit,lab,series,vm,regress,slow)
	check=$(env -u BASE "$S/check.sh" -l)
	slow=$(env -u BASE "$S/check.sh" -l -t slow)
	for b in $(lab_bases); do
		grep -q "^$b/series/tree$" <<<"$all" || { echo "make check does not make the tree of $b"; return 1; }
		only=$(BASE=$b "$S/check.sh" -l -t lab,series,vm,regress,slow)
		echo "BASE=$b: $(wc -l <<<"$only") tests"
		! grep -v "^$b/" <<<"$only" || { echo "BASE=$b runs tests of another base"; return 1; }
		[[ $only == "$(grep "^$b/" <<<"$all")" ]] || { echo "BASE=$b does not run all of $b's tests"; return 1; }
		marked=$(list_entries "$LAB_ROOT/config/$b/tests" | sed -n "s|^slow[[:space:]]\{1,\}\([^[:space:]]*\).*|$b/\1|p")
		[[ $marked == "$(grep "^$b/" <<<"$slow" | grep -v "^$b/series/tree$" || true)" ]] ||
			{ echo "check.sh -t slow does not run exactly $b's lines marked slow"; return 1; }
		for f in $marked; do
			! grep -qx "$f" <<<"$check" || { echo "make check runs $f, marked slow"; return 1; }
		done
		echo "BASE=$b: $(wc -w <<<"$marked") tests marked slow"
	done
	[[ $(grep -c '^unit/' <<<"$all") == $(find "$LAB_ROOT/tests/unit" -name '*.sh' | wc -l) ]] ||
		{ echo "not every test of tests/unit/ runs"; return 1; }
	listed=$(sed 's|^[^/]*/||' <<<"$all" | sort -u)
	for f in "$LAB_ROOT"/tests/{lab,series,vm,regress}/*.sh; do
		f=${f#"$LAB_ROOT"/tests/}
		grep -qx "${f%.sh}" <<<"$listed" || { echo "tests/$f runs on no base (config/<base>/tests)"; return 1; }
	done
	echo "$(wc -l <<<"$all") tests in all"
}

run_test check_runs_each_base "$@"
