#!/bin/bash
# make regress boots a new VM for the tests after one whose kernel died: in a test (no end marker),
# and after a test's end before the next one started (work the test left deferred, say: a crash or
# a hang then counts against the test that ended). The VM's own time limit running out between two
# tests resumes after the test that ended, which keeps its result. Every other test runs once. A VM
# that ends before any test started, or between two tests with no crash, hang or time limit (the
# guest's script gone), stops the suite with one line. Here scripts/lib/regress-runs.sh's run_todo
# drives a stand-in run_vm that plays regress-guest.sh's markers, writes vm.sh's last line to the
# console, and returns 1 where told.
# Plant: a death after a test's end taken for a VM that ended before a test started (what
# regress.sh did until 2026-12-06: the side stopped, and its remaining tests never ran).
# Plant command: sed -i 's/^\t\t\[\[ -n \$started \]\] ||/\t\t[[ -n $started ]] \&\& ! grep -qF -- "lab-regress: end $started rc=" "$run" ||/' scripts/lib/regress-runs.sh
# Plant: any end between two tests blamed on the test that ended (a guest script gone too).
# Plant command: sed -i 's/^\t\t\t\tdie "\$suite: the VM ended (status \$status) after \$started ended.*/\t\t\t\twhy=CRASH/' scripts/lib/regress-runs.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../../scripts/lib/regress-runs.sh
. "$S/lib/regress-runs.sh"

# run_vm TODO RUN: the stand-in VM. Runs TODO's tests in order; it ends in test DIE_IN, after test
# DIE_AFTER, or (DIE_IN=boot) before the first one, and then writes vm.sh's last line WHY to the
# console. Logs each boot's tests.
run_vm() {
	local t died=0
	echo "boot: $(cut -d' ' -f1 "$1" | paste -sd' ')" >>"$scratch/boots"
	[[ $DIE_IN != boot ]] || died=1
	while ((!died)) && read -r t _; do
		echo "lab-regress: start $t"
		[[ $t != "$DIE_IN" ]] || { died=1; break; }
		echo "lab-regress: end $t rc=0 secs=1"
		[[ $t != "$DIE_AFTER" ]] || died=1
	done <"$1" >"$2"
	((died)) || { echo 'lab-regress: done' >>"$2"; return 0; }
	echo "error: $WHY" >>"$out.console"
	return 1
}

# one_suite DIE_IN DIE_AFTER WHY: run_todo over tests a to e; prints the boots, the lost lines and
# the error, returns run_todo's status
one_suite() {
	local rc=0
	DIE_IN=$1 DIE_AFTER=$2 WHY=$3
	out=$scratch/test_progs suite=test_progs kernel=/k/regress-stand-in interrupted=0
	rm -f "$scratch/boots" "$out".*
	printf '%s\n' a b c d e >"$out.todo"
	: >"$out.console"
	(run_todo "$out.todo") 2>"$scratch/err" || rc=$?
	cat "$scratch/boots"
	grep -h '^lab-regress: lost' "$out.out" || true
	sed -n 's|^error: \(.*\); see .*|error: \1|p' "$scratch/err"
	return "$rc"
}

regress_boots_again_after_a_death() {
	local crashed='the kernel crashed (see above)' got rc case
	while IFS='|' read -r case die_in die_after why want_rc want; do
		rc=0
		got=$(one_suite "$die_in" "$die_after" "$why") || rc=$?
		want=${want//\\n/$'\n'}
		if ((rc != want_rc)) || [[ $got != "$want" ]]; then
			printf '%s: status %s, expected %s; got:\n%s\nexpected:\n%s\n' "$case" "$rc" "$want_rc" "$got" "$want"
			return 1
		fi
		echo "$case: ok"
	done <<EOF_CASES
death in c|c||$crashed|0|boot: a b c d e\nboot: d e\nlab-regress: lost c CRASH
crash after c's end|-|c|$crashed|0|boot: a b c d e\nboot: d e\nlab-regress: lost c CRASH after its end
hang after c's end|-|c|VM hangs: no output from the guest for 1020s|0|boot: a b c d e\nboot: d e\nlab-regress: lost c HANG after its end
crash after the last test|-|e|$crashed|0|boot: a b c d e\nlab-regress: lost e CRASH after its end
time limit after c's end|-|c|VM timed out after 21600s|0|boot: a b c d e\nboot: d e
no crash after c's end|-|c|VM ended without reporting the command's exit status (qemu exit code 0)|1|boot: a b c d e\nerror: test_progs: the VM ended (status 1) after c ended, before the next test started, with no crash
death at boot|boot||$crashed|1|boot: a b c d e\nerror: test_progs: the VM ended (status 1) before a test started
EOF_CASES
}

run_test regress_boots_again_after_a_death "$@"
