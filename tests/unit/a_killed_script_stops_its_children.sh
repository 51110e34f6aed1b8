#!/bin/bash
# A kill of a lab script stops what it started, as Ctrl-C does: lib.sh's own_group, the first
# command of every script that runs long children, runs the script as a process group of its own
# and passes a signal of the script on to that group. Here a script of the scratch directory,
# calling own_group as the lab's do, waits in a command substitution on a sleep of a length no other
# process uses; a SIGTERM of the script must end it within 10 s, with status 143 and the sleep
# gone. Ctrl-C (SIGINT to the first process) of a script that runs another lab script as
# `inner || echo ...` must stop both, the outer one included, with the first process dead of
# SIGINT, as without own_group. A SIGKILL to the process group of a test of check.sh must reach a
# lab script that a lab script started. And every script of scripts/ that starts a build, a VM or another
# lab script of those calls own_group "$@" right after sourcing lib.sh. (The scripts run with
# LAB_OWN_GROUP unset, as from a shell: under check.sh a lab script stays in its test's group.)
# Plant: own_group runs the script in the caller's process group (the kill reaches only the first
# bash, and the sleep, like a make or QEMU, goes on).
# Plant command: sed -i 's/^\tset -m$/\t: set -m/' scripts/lib/procs.sh
# Plant: a lab script started by another one makes a process group of its own too (check.sh's
# SIGKILL of a test's group then misses the nested script's group).
# Plant command: sed -i 's/^\t\[\[ -z \${LAB_OWN_GROUP:-} \]\] || return 0$/\tif [[ -n ${LAB_OWN_GROUP:-} ]]; then unset LAB_OWN_GROUP; return 0; fi/' scripts/lib/procs.sh
# Plant: the first process exits with the script's status instead of dying of the signal.
# Plant command: sed -i 's/^\t\tkill -s "\$_own_group_sig" \$\$$/\t\t:/' scripts/lib/procs.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

kill_stops_the_whole_script() {
	local script=$scratch/long.sh out=$scratch/long.out secs=$((4000 + RANDOM % 1000)) pid
	# shellcheck disable=SC2016 # the scratch script's own expansions
	printf '%s\n' '#!/bin/bash' 'set -euo pipefail' ". '$S/lib.sh'" 'own_group "$@"' \
		'x=$(sleep "$1"; echo slept)' 'echo "not stopped: $x"' >"$script"
	env -u LAB_OWN_GROUP bash "$script" "$secs" >"$out" 2>&1 &
	pid=$!
	poll 50 sleep_runs "$secs" || { echo "the script's sleep never started"; cat "$out"; return 1; }
	sigterm_ends "$pid" "$secs" || return 1
	((term_rc == 143)) || { echo "the script exited $term_rc after SIGTERM, not 143"; cat "$out"; return 1; }
}

# Ctrl-C of a script that runs another one: SIGINT to the first process (not ignored, as it is in a
# background job of a script, hence the python3 that restores it).
ctrl_c_stops_nested_scripts() {
	local outer=$scratch/outer.sh inner=$scratch/inner.sh out=$scratch/nested.out
	local secs=$((5000 + RANDOM % 1000)) pid runner
	# shellcheck disable=SC2016 # the scratch scripts' own expansions
	printf '%s\n' '#!/bin/bash' 'set -uo pipefail' ". '$S/lib.sh'" 'own_group "$@"' \
		'sleep "$1"' >"$inner"
	# shellcheck disable=SC2016
	printf '%s\n' '#!/bin/bash' 'set -uo pipefail' ". '$S/lib.sh'" 'own_group "$@"' \
		"bash '$inner' \"\$1\" || echo \"inner failed with \$?\"" 'echo "outer went on"' >"$outer"
	# python3 starts the outer script, writes its pid, and prints how it ended: "signal N" or "exit N"
	env -u LAB_OWN_GROUP python3 -c 'import signal, subprocess, sys
p = subprocess.Popen(sys.argv[2:], preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
open(sys.argv[1], "w").write("%d\n" % p.pid)
rc = p.wait()
print("ended: signal %d" % -rc if rc < 0 else "ended: exit %d" % rc)' "$scratch/outer.pid" bash "$outer" "$secs" >"$out" 2>&1 &
	runner=$!
	poll 50 sleep_runs "$secs" || { echo "the inner script's sleep never started"; cat "$out"; return 1; }
	pid=$(cat "$scratch/outer.pid")
	kill -INT "$pid"
	if ! poll 100 ended "$runner"; then
		echo "the outer script still runs 10 s after SIGINT"
		kill -KILL "$pid" "$runner"
		pkill -fx "sleep $secs"
		return 1
	fi
	wait "$runner" || true
	sleep 0.5
	if sleep_runs "$secs"; then
		echo "SIGINT left the inner script's sleep running"
		pkill -fx "sleep $secs"
		return 1
	fi
	if grep -q "went on\|inner failed" "$out"; then
		echo "after SIGINT the outer script went on:"
		cat "$out"
		return 1
	fi
	grep -qx 'ended: signal 2' "$out" || { echo "the first process did not die of SIGINT:"; cat "$out"; return 1; }
}

# Under check.sh a test is a process group that check.sh stops with SIGKILL (at its time limit, or
# on Ctrl-C): lab scripts run by the test, and those they run, must stay in it. The test's
# environment has LAB_OWN_GROUP (check.sh's own_group exports it); here setsid gives the group.
group_kill_reaches_nested_scripts() {
	local outer=$scratch/outer.sh inner=$scratch/inner.sh secs=$((6000 + RANDOM % 1000)) pid
	# shellcheck disable=SC2016 # the scratch scripts' own expansions
	printf '%s\n' '#!/bin/bash' 'set -uo pipefail' ". '$S/lib.sh'" 'own_group "$@"' \
		'sleep "$1"' >"$inner"
	# shellcheck disable=SC2016
	printf '%s\n' '#!/bin/bash' 'set -uo pipefail' ". '$S/lib.sh'" 'own_group "$@"' \
		"bash '$inner' \"\$1\"" >"$outer"
	LAB_OWN_GROUP=1 setsid bash "$outer" "$secs" >/dev/null 2>&1 &
	pid=$!
	poll 50 sleep_runs "$secs" || { echo "the inner script's sleep never started"; return 1; }
	kill -KILL -- -"$pid"
	wait "$pid" || true
	sleep 0.5
	if sleep_runs "$secs"; then
		echo "SIGKILL to the test's process group left a nested script's sleep running"
		pkill -fx "sleep $secs"
		return 1
	fi
}

long_scripts_call_own_group() {
	local f rel bad=0
	while read -r f; do
		rel=${f#"$LAB_ROOT"/}
		[[ $rel == scripts/lib.sh || $rel == scripts/lib/* || $rel == scripts/vm.sh || $rel == scripts/vm-init.sh ]] && continue
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
	ctrl_c_stops_nested_scripts || rc=1
	group_kill_reaches_nested_scripts || rc=1
	long_scripts_call_own_group || rc=1
	return "$rc"
}

run_test a_killed_script_stops_its_children "$@"
