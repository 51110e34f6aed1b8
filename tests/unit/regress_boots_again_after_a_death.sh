#!/bin/bash
# make regress boots a new VM for the tests after one whose kernel died: in a test (no end marker),
# and after a test's end before the next one started (work the test left deferred, say). The dead
# test is marked lost, every other test runs once, and a VM that ends before any test started
# stops the suite with one line. Here scripts/lib/regress.sh's run_todo drives a stand-in run_vm
# that plays regress-guest.sh's markers and "dies" (returns 1) where told.
# Plant: a death after a test's end taken for a VM that ended before a test started (what
# regress.sh did until 2026-12-06: the side stopped, and its remaining tests never ran).
# Plant command: sed -i 's/^\t\t\[\[ -n \$started \]\] ||/\t\t[[ -n $started ]] \&\& ! grep -qF -- "lab-regress: end $started rc=" "$run" ||/' scripts/lib/regress.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=../../scripts/lib/regress.sh
. "$S/lib/regress.sh"

# run_vm TODO RUN: the stand-in VM. Runs TODO's tests in order; DIE_IN names a test it dies in,
# DIE_AFTER one it dies after; DIE_AT_BOOT dies before the first test. Logs each boot's tests.
run_vm() {
	local t
	echo "boot: $(cut -d' ' -f1 "$1" | paste -sd' ')" >>"$scratch/boots"
	{
		[[ -z $DIE_AT_BOOT ]] || return 1
		while read -r t _; do
			echo "lab-regress: start $t"
			[[ $t != "$DIE_IN" ]] || return 1
			echo "lab-regress: end $t rc=0 secs=1"
			[[ $t != "$DIE_AFTER" ]] || return 1
		done <"$1"
		echo 'lab-regress: done'
	} >"$2"
}

# one_suite DIE_IN DIE_AFTER DIE_AT_BOOT: run_todo over tests a to e; prints the boots and the lost
# lines, returns run_todo's status
one_suite() {
	local rc=0
	DIE_IN=$1 DIE_AFTER=$2 DIE_AT_BOOT=$3
	out=$scratch/test_progs suite=test_progs kernel=/k/regress-stand-in interrupted=0
	rm -f "$scratch/boots" "$out".*
	printf '%s\n' a b c d e >"$out.todo"
	: >"$out.console"
	(run_todo "$out.todo") 2>"$scratch/err" || rc=$?
	cat "$scratch/boots"
	grep -h '^lab-regress: lost' "$out.out" || true
	grep -h '^error' "$scratch/err" || true
	return "$rc"
}

regress_boots_again_after_a_death() {
	local got
	got=$(one_suite c '' '') || { echo "a death in test c stopped the suite:"; echo "$got"; return 1; }
	echo "$got"
	[[ $got == $'boot: a b c d e\nboot: d e\nlab-regress: lost c CRASH' ]] || return 1
	got=$(one_suite '' c '') || { echo "a death after test c's end stopped the suite:"; echo "$got"; return 1; }
	echo "$got"
	[[ $got == $'boot: a b c d e\nboot: d e\nlab-regress: lost c CRASH after its end' ]] || return 1
	if got=$(one_suite '' '' 1); then
		echo "a VM that died before any test started did not stop the suite:"
		echo "$got"
		return 1
	fi
	echo "$got"
	grep -qx 'error: test_progs: the VM ended (status 1) before a test started; see .*/test_progs.console' <<<"$got"
}

run_test regress_boots_again_after_a_death "$@"
