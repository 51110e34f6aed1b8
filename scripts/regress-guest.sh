#!/bin/bash
# Run by scripts/regress.sh inside the VM: one BPF selftests suite, from its build directory.
#   regress-guest.sh DIR SUITE LIMIT [TESTS-FILE DENY]
# test_progs and test_progs-no_alu32 run one test per invocation, each under a time limit of LIMIT
# seconds: TESTS-FILE has a line per test, its name and what to pass to -a (the name, or some of its
# subtests), DENY (comma-separated, test/subtest globs) is passed as -d; test_maps,
# test_verifier and test_lru_map run whole, under the same limit. Markers go to the output and to
# the kernel log, so that a splat on the console belongs to the test around it and the host knows
# where to resume after a crash:
#   lab-regress: start NAME | lab-regress: end NAME rc=RC secs=S | lab-regress: done
# A test_progs that writes a JSON summary (-J, 6.4 and later) writes one per run, printed after the
# end marker on one line (the output only: the kernel log gets the markers):
#   lab-regress: json NAME {...}
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
	json_args=()
	json=''
	if "./$suite" --help 2>&1 | grep -q -- '--json-summary'; then
		json=$(mktemp "${TMPDIR:-/tmp}/regress-json.XXXXXX")
		json_args=(-J "$json")
	fi
	while read -r t sel; do
		[[ -z $json ]] || : >"$json"
		run "$t" "./$suite" -a "${sel:-$t}" ${deny:+-d "$deny"} "${json_args[@]}"
		# JSON strings hold no raw newlines: the summary joins into one line
		[[ ! -s $json ]] || echo "lab-regress: json $t $(tr -d '\n' <"$json")"
	done <"$tests"
	[[ -z $json ]] || rm -f "$json"
	;;
test_maps | test_verifier | test_lru_map) run "$suite" "./$suite" ;;
*)
	echo "regress-guest.sh: unknown suite '$suite'" >&2
	exit 2
	;;
esac
mark "done"
