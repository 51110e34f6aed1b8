#!/bin/bash
# A kill of a lab script stops what it started, as Ctrl-C does: lib.sh's own_group, the first
# command of every script that runs long children, runs the script as a process group of its own
# and passes a signal of the script on to that group. Here a script of the scratch directory,
# calling own_group as the lab's do, waits in a command substitution on a sleep of a length no other
# process uses; a SIGTERM of the script must end it within 10 s, with status 143 and the sleep
# gone. And every script of scripts/ that starts a build, a VM or another lab script of those
# calls own_group "$@" right after sourcing lib.sh.
# Plant: own_group runs the script in the caller's process group (the kill reaches only the first
# bash, and the sleep, like a make or QEMU, goes on).
# Plant command: sed -i 's/^\tset -m$/\t: set -m/' scripts/lib.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

kill_stops_the_whole_script() {
	local script=$scratch/long.sh out=$scratch/long.out secs=$((4000 + RANDOM % 1000)) pid i rc=0
	# shellcheck disable=SC2016 # the scratch script's own expansions
	printf '%s\n' '#!/bin/bash' 'set -euo pipefail' ". '$S/lib.sh'" 'own_group "$@"' \
		'x=$(sleep "$1"; echo slept)' 'echo "not stopped: $x"' >"$script"
	bash "$script" "$secs" >"$out" 2>&1 &
	pid=$!
	for ((i = 0; i < 50; i++)); do
		pgrep -fx "sleep $secs" >/dev/null && break
		sleep 0.1
	done
	pgrep -fx "sleep $secs" >/dev/null || { echo "the script's sleep never started"; cat "$out"; return 1; }
	kill -TERM "$pid"
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "the script still runs 10 s after SIGTERM"
		kill "$pid"
		pkill -fx "sleep $secs"
		return 1
	fi
	wait "$pid" || rc=$?
	for ((i = 0; i < 20; i++)); do
		pgrep -fx "sleep $secs" >/dev/null || break
		sleep 0.1
	done
	if pgrep -fx "sleep $secs" >/dev/null; then
		echo "the script ended (status $rc) and left its child running: sleep $secs"
		pkill -fx "sleep $secs"
		return 1
	fi
	((rc == 143)) || { echo "the script exited $rc after SIGTERM, not 143"; cat "$out"; return 1; }
}

long_scripts_call_own_group() {
	local f rel bad=0
	while read -r f; do
		rel=${f#"$LAB_ROOT"/}
		[[ $rel == scripts/lib.sh || $rel == scripts/vm.sh || $rel == scripts/vm-init.sh ]] && continue
		grep -qE 'lab_make |/(kernel|bench-build|vm|regress|check-debug|compare|tree)\.sh"' "$f" || continue
		if ! grep -A1 -E '^\. "\$\(dirname .*lib\.sh"$' "$f" | grep -qx 'own_group "\$@"'; then
			echo "$rel starts long children but does not call own_group \"\$@\" right after sourcing lib.sh"
			bad=1
		fi
	done < <(find "$LAB_ROOT/scripts" -name '*.sh' | sort)
	return "$bad"
}

a_killed_script_stops_its_children() {
	local rc=0
	kill_stops_the_whole_script || rc=1
	long_scripts_call_own_group || rc=1
	return "$rc"
}

run_test a_killed_script_stops_its_children "$@"
