# Sourced by scripts/regress.sh: running a suite's tests in VMs, booting a new one after a kernel
# died. Apart from regress.sh so that a test can drive run_todo with a stand-in run_vm
# (tests/unit/regress_boots_again_after_a_death.sh).
# shellcheck shell=bash
# shellcheck disable=SC2154 # out, suite, kernel: run_suite's; stop_requested: run_stoppable's

# drop_listed LIST FILE: FILE's lines whose first field is not the first field of a line of LIST;
# keep_listed LIST FILE: those whose first field is. LIST may be empty (no test finished in a run
# cut short, none failed): awk's NR == FNR would then read FILE as the list.
drop_listed() {
	awk 'FILENAME == ARGV[1] { l[$1]; next } !($1 in l)' "$1" "$2"
}

keep_listed() {
	awk 'FILENAME == ARGV[1] { l[$1]; next } ($1 in l)' "$1" "$2"
}

# last_end OUT SUITE: "RC SECS" of SUITE's last end marker in OUT (regress-guest.sh), nothing if
# it has none (the markers are read in regress-results only).
last_end() {
	python3 "$LAB_ROOT/scripts/readout.py" regress-results marks end "$1" "$2"
}

# whole_run_stands RC SECS LIMIT RAN_LIMIT: succeeds if a whole suite's kept run, which ended
# with RC after SECS seconds under a time limit of RAN_LIMIT, has the result a run under LIMIT
# would have: it ended within LIMIT, or a limit of LIMIT or more killed it (timeout -s KILL:
# rc=137, TIMEOUT). Otherwise prints why not.
whole_run_stands() {
	local rc=$1 secs=$2 limit=$3 ran=$4
	if ((rc == 137 && ran < limit)); then
		echo "its kept run was stopped after $secs s by a time limit of $ran s, shorter than $limit s"
		return 1
	fi
	if ((rc != 137 && secs >= limit)); then
		echo "its kept run took $secs s, past the time limit of $limit s"
		return 1
	fi
}

# run_todo TODO: run the tests listed in TODO (regress-guest.sh) in the VM, appending to $out.out;
# a kernel that dies in a test, or between two, is booted again for the tests after it (uses
# run_suite's variables)
run_todo() {
	local todo=$1 run=$out.run
	while [[ -s $todo ]]; do
		note "$suite: $(wc -l <"$todo") tests to run on $(basename "$kernel")"
		start=$SECONDS status=0
		# from the results directory: the guest then sees it (TODO) also when it is under /tmp
		run_stoppable run_vm "$todo" "$run" || status=$?
		((!stop_requested)) || interrupted=1
		cat "$run" >>"$out.out"
		# the suite's wall time, VM boots included, over every run of it (resumed ones too)
		echo $(($(cat "$out.wall" 2>/dev/null || echo 0) + SECONDS - start)) >"$out.wall"
		# 129, 130, 143: vm.sh (or QEMU, when a background run ignores SIGINT) was stopped by
		# SIGHUP, SIGINT or SIGTERM
		((!interrupted && status != 129 && status != 130 && status != 143)) ||
			{ note "$suite: interrupted"; exit 130; }
		python3 "$LAB_ROOT/scripts/readout.py" regress-results marks 'done' "$run" && break
		# The VM died in the last test started, or its kernel crashed or hung after that test's end
		# and before the next one started (in work the test left deferred, say): mark that test
		# lost, and boot again for the tests after it. The VM's own time limit between two tests
		# only resumes after the test that ended. Any other end (no test started, the guest's
		# script gone) would come again: stop.
		started=$(python3 "$LAB_ROOT/scripts/readout.py" regress-results marks started "$run")
		[[ -n $started ]] || die "$suite: the VM ended (status $status) before a test started; see $out.console"
		# vm.sh's last line names one end at most: a crash, a hang or its time limit
		case $(tail -n 5 "$out.console") in
		*'the kernel crashed'*) why=CRASH ;;
		*'VM hangs'*) why=HANG ;;
		*'VM timed out'*) why=TIMEOUT ;;
		*) why='' ;;
		esac
		after=''
		if python3 "$LAB_ROOT/scripts/readout.py" regress-results marks ended "$run" "$started"; then
			after=' after its end'
			[[ -n $why ]] ||
				die "$suite: the VM ended (status $status) after $started ended, before the next test started, with no crash; see $out.console"
		fi
		why=${why:-CRASH}	# in a test: however the VM ended
		if [[ $why$after == "TIMEOUT after its end" ]]; then
			note "$suite: the VM's time limit ran out after $started; the tests after it run in a new VM"
		else
			echo "lab-regress: lost $started $why$after" >>"$out.out"
			note "$suite: $started: $why$after; the tests after it run in a new VM"
		fi
		t=$(awk -v n="$started" '$1 == n { print NR; exit }' "$todo")
		[[ -n $t ]] || die "$suite: $started, the last test started, is not in $todo; see $out.console"
		sed -i "1,${t}d" "$todo"
	done
	rm -f "$run"
}
