#!/bin/bash
# Run by scripts/regress.sh inside the VM: one BPF selftests suite, from its build directory.
#   regress-guest.sh DIR SUITE LIMIT [TESTS-FILE DENY]
# test_progs and test_progs-no_alu32 run one test per invocation, each under a time limit of LIMIT
# seconds: TESTS-FILE has a line per test, its name and what to pass to -a (the name, or some of its
# subtests), DENY (comma-separated, test/subtest globs) is passed as -d; test_maps and
# test_verifier run whole, under the same limit. Markers go to the output and to the kernel log, so
# that a splat on the console belongs to the test around it and the host knows where to resume
# after a crash:
#   lab-regress: start NAME | lab-regress: end NAME rc=RC secs=S | lab-regress: done
set -u
dir=$1 suite=$2 limit=$3 tests=${4:-} deny=${5:-}
cd "$dir" || exit 1
mark() {
	echo "lab-regress: $*"
	echo "lab-regress: $*" >/dev/kmsg
}
# run NAME CMD...: one run under the time limit (KILL: a test stuck in the kernel ignores TERM)
run() {
	local name=$1 start=$SECONDS rc=0
	shift
	mark "start $name"
	timeout -s KILL "$limit" "$@" </dev/null 2>&1 || rc=$?
	mark "end $name rc=$rc secs=$((SECONDS - start))"
}
case $suite in
test_progs | test_progs-no_alu32)
	while read -r t sel; do
		run "$t" "./$suite" -a "${sel:-$t}" ${deny:+-d "$deny"}
	done <"$tests"
	;;
test_maps | test_verifier) run "$suite" "./$suite" ;;
*)
	echo "regress-guest.sh: unknown suite '$suite'" >&2
	exit 2
	;;
esac
mark "done"
