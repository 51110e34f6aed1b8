#!/bin/bash
# A kill of make regress stops its VM at once: regress.sh runs each VM with lib.sh's run_stoppable,
# which passes a SIGTERM of the script on to the command. Here the command is a sleep of a length
# no other process uses; the script that runs it gets SIGTERM, and must end within 10 s with the
# sleep gone, stop_requested set, and its own trap of TERM back in place.
# Plant: run_stoppable runs its command in the foreground (bash then runs the trap only once the
# command ended by itself: the script, and the VM, go on).
# Plant command: sed -i 's/^\t"\$@" &$/\t"$@"; : \&/' scripts/lib/procs.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

run_stoppable_stops_its_command() {
	local out=$scratch/stoppable.out secs=$((3000 + RANDOM % 1000)) pid
	# shellcheck disable=SC2016 # expanded by the inner shell
	bash -c '. "$0/lib.sh"; trap "echo caller-trap" TERM
		run_stoppable sleep "$1"; echo "status $? stop_requested $stop_requested"
		echo "trap after: $(trap -p TERM)"' "$S" "$secs" >"$out" 2>&1 &
	pid=$!
	poll 50 sleep_runs "$secs" || { echo "the command never started"; cat "$out"; return 1; }
	sigterm_ends "$pid" "$secs" || { cat "$out"; return 1; }
	cat "$out"
	grep -qx 'status 143 stop_requested 1' "$out" || return 1
	grep -q "trap after: trap -- 'echo caller-trap' SIGTERM" "$out"
}

run_test run_stoppable_stops_its_command "$@"
