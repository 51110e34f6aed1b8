#!/bin/bash
# scripts/measure.sh stops on bad input with one line naming what is wrong, before it builds or
# boots anything: no runner, a runner scripts/guest/ does not have, a VM option on the host, a
# number that is not one, a label that is not KEY=VALUE, a log in no directory. Run on a scratch
# copy of the lab whose tree.sh, kernel.sh, bench-build.sh and vm.sh only say that they ran.
# Plant: measure.sh without its check of the runner (it then goes on to the tree and the builds).
# Plant command: sed -i 's/^\[\[ \$runner =~ .* ||$/true ||/' scripts/measure.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

measure_refuses_bad_input() {
	local args want out rc f lab=$scratch/lab cache=$scratch/cache
	mkdir -p "$lab" "$cache"
	cp -a "$LAB_ROOT/scripts" "$LAB_ROOT/config" "$lab/"
	for f in tree.sh kernel.sh bench-build.sh vm.sh; do
		printf '#!/bin/bash\necho "%s ran" >&2\nexit 1\n' "$f" >"$lab/scripts/$f"
	done
	while IFS='|' read -r args want; do
		rc=0
		# shellcheck disable=SC2086 # the arguments are words
		out=$(LAB_CACHE=$cache timeout 30 "$lab/scripts/measure.sh" $args 2>&1 </dev/null) || rc=$?
		echo "measure.sh $args: $out"
		((rc != 0 && rc != 124)) || { echo "expected a failure, got exit $rc"; return 1; }
		[[ $(wc -l <<<"$out") == 1 && $out == "error: $want"* ]] || { echo "expected one line 'error: $want...'"; return 1; }
	done <<'CASES'
|no runner given
-K base|no runner given
nosuch|unknown runner 'nosuch' (one of:
../vm|unknown runner '../vm'
-H -K base suite|-H runs on the host's kernel
-H -i suite|-H runs on the host's kernel
-c 0 suite|-c 0: expected a positive number
-t 10m suite|-t 10m: expected a positive number
-L trial suite|-L 'trial': expected KEY=VALUE
-l /nonexistent/dir/log suite|-l /nonexistent/dir/log: no directory
-x suite|-x: no such option
-K|-K: needs a value
CASES
	[[ -z $(ls -A "$cache") ]] || { echo "measure.sh wrote to the lab cache:" "$cache"/*; return 1; }
}

run_test measure_refuses_bad_input "$@"
