#!/bin/bash
# make regress with VMS=2 runs the base's side and the series' side as two background jobs; a kill
# reaches both (one process group), and they take a while to stop their VMs. The script must not
# end before they have: lib.sh's wait_for waits again when a trapped signal cuts a wait short.
# Here a scratch script, calling own_group as make regress does, traps TERM and waits with wait_for
# on two children that take a second to stop after SIGTERM; after a SIGTERM of the script, both
# children must have written their line before the script writes its own.
# Plant: wait_for as a plain wait (a trapped signal ends it at once, and the script goes on).
# Plant command: sed -i 's/^\t\t\tkill -0 "\$pid" 2>\/dev\/null || break$/\t\t\tbreak/' scripts/lib/procs.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

two_sleeps() {
	(($(pgrep -fx "sleep $1" | wc -l) == 2))
}

a_script_waits_for_its_sides() {
	local script=$scratch/sides.sh log=$scratch/sides.log secs=$((7000 + RANDOM % 1000)) pid
	# shellcheck disable=SC2016 # the scratch script's own expansions
	printf '%s\n' '#!/bin/bash' 'set -uo pipefail' ". '$S/lib.sh'" 'own_group "$@"' \
		'side() { trap "sleep 1; echo side $1 >>\"$2\"; exit 0" TERM; sleep "$3" & wait; }' \
		'side 1 "$1" "$2" & p1=$!' 'side 2 "$1" "$2" & p2=$!' \
		'trap "signalled=1" TERM' 'wait_for "$p1" "$p2"' 'echo "script ${wait_status[*]}" >>"$1"' \
		>"$script"
	env -u LAB_OWN_GROUP bash "$script" "$log" "$secs" >/dev/null 2>&1 &
	pid=$!
	poll 50 two_sleeps "$secs" || { echo "the two sides never started"; return 1; }
	kill -TERM "$pid"
	wait "$pid" 2>/dev/null || true
	sleep 2
	pkill -fx "sleep $secs" || true
	if [[ $(tail -n1 "$log" 2>/dev/null) != "script 0 0" ]] || (($(grep -c '^side' "$log") != 2)); then
		echo "the script ended before its sides had stopped:"
		cat "$log"
		return 1
	fi
}

run_test a_script_waits_for_its_sides "$@"
