#!/bin/bash
# make vm without CMD opens a shell in the guest on the terminal (vm.sh -I, as selftests/bpf's
# vmtest.sh -s), and however it ends leaves no QEMU, no run directory, no mount and no raw
# terminal behind. On a scratch copy of the lab whose tree.sh and deps.sh do nothing and whose
# kernel.sh names an empty bzImage, make vm runs the real vm.sh with a fake QEMU that plays the
# guest: it answers only when its third serial port is its stdio (-chardev stdio) and the guest's
# command is an interactive bash on ttyS2 with it as controlling terminal; it then makes its stdin
# raw, as QEMU does, reads command lines from it as the guest's shell would, and reports the
# shell's exit status on the second serial port. Three ends: `exit 7` typed (make vm fails with
# vm.sh's 7); a kill of vm.sh on a terminal (script(1) gives it one), whose settings must come
# back; SIGINT to the whole process group, as a Ctrl-C before the terminal is raw.
# Plant: make vm without CMD running vm.sh with an empty command instead of the shell (-I).
# Plant command: sed -i 's/ \$(if \$(value CMD),-- \$(cmd_quoted),-I)$/ -- $(cmd_quoted)/' Makefile
# Plant: vm.sh's clean-up leaving QEMU running on a signal.
# Plant command: sed -i '/^clean_up() {$/,/^}$/s/^\tstop_all$/\t:/' scripts/vm.sh
# Plant: vm.sh leaving the terminal as QEMU made it (raw) when it is stopped.
# Plant command: sed -i '/^clean_up() {$/,/^}$/{/term_state/d}' scripts/vm.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# fake_qemu FILE: the guest of make vm's shell, as described above
fake_qemu() {
	# shellcheck disable=SC2016 # the fake QEMU's own expansions
	printf '%s\n' '#!/bin/bash' \
		'serials=() chardev="" append="" prev=""' \
		'for a; do' \
		'	case $prev in -serial) serials+=("$a") ;; -chardev) chardev=$a ;; -append) append=$a ;; esac' \
		'	prev=$a' \
		'done' \
		'out=${serials[1]#file:} run_dir=${append##*lab_run=}; run_dir=${run_dir%% *}' \
		'status=99' \
		'if [[ $chardev == stdio,* && ${serials[2]:-} == chardev:* ]] &&' \
		'	grep -q "setsid -c bash .*-i <>/dev/ttyS2" "$run_dir/cmd"; then' \
		'	[[ ! -t 0 ]] || stty raw -echo' \
		'	echo "fake guest: a shell on ttyS2"' \
		'	echo started >"$FAKE_QEMU_MARK"' \
		'	[[ -z ${FAKE_GUEST_HANGS:-} ]] || while :; do sleep 0.1; done' \
		'	status=0' \
		'	while IFS= read -r line; do' \
		'		[[ $line =~ ^exit\ ?([0-9]*)$ ]] && { status=${BASH_REMATCH[1]:-0}; break; }' \
		'		bash -c "$line"' \
		'	done' \
		'else' \
		'	echo "fake guest: no shell on a terminal, only the command: $(cat "$run_dir/cmd")"' \
		'fi' \
		'echo "lab-vm-exit-status: $status" >"$out"'
}

# left_behind QEMU RUNS: what a VM left: a fake QEMU still running, a run directory, a mount
left_behind() {
	pgrep -af "^/bin/bash $1" || true
	ls -A "$2"
	grep -F " $2" /proc/self/mountinfo || true
}

# stop_make_vm WHAT PID STOP...: once the fake guest offers its shell, stop make vm (PID, the leader
# of its process group) with the command STOP; sets rc to make vm's exit status and left to what it
# left behind. When the guest never offers a shell, says so with make vm's output, kills the group
# and returns 1; when make vm still runs 10 s after STOP, says so, kills it and sets bad. (It reads
# and sets the test's mark, out, qemu, runs, rc, left and bad.)
stop_make_vm() {
	local what=$1 pid=$2
	shift 2
	if ! poll 100 test -f "$mark"; then
		echo "$what: the fake guest never offered a shell"
		sed 's/^/    /' "$out"
		kill -KILL -- -"$pid" 2>/dev/null || true
		return 1
	fi
	"$@" || true
	poll 100 ended "$pid" || { echo "$what: make vm still runs 10 s after it"; kill -KILL -- -"$pid"; bad=1; }
	rc=0
	wait "$pid" || rc=$?
	left=$(left_behind "$qemu" "$runs")
}

make_vm_shell_leaves_nothing_behind() {
	local lab=$scratch/lab qemu=$scratch/qemu runs=$scratch/runs mark=$scratch/started out=$scratch/out
	local pid rc left bad=0
	local -a env_vm
	fake_lab_copy "$lab"
	mkdir -p "$lab/kernel" "$runs"
	: >"$lab/kernel/bzImage"
	printf '#!/bin/bash\necho %q\n' "$lab/kernel" >"$lab/scripts/kernel.sh"
	fake_qemu >"$qemu"
	chmod +x "$qemu"
	env_vm=(env -u MAKEFLAGS -u MAKELEVEL -u CMD -u REV -u LAB_OWN_GROUP LAB_CACHE="$lab/cache" LAB_TREE="$lab/tree"
		LAB_QEMU="$qemu" LAB_VM_RUNS="$runs" FAKE_QEMU_MARK="$mark" ACCEL=tcg)

	# 1. exit typed in the shell: make vm fails with the shell's status, nothing is left
	rc=0
	printf 'echo in-the-guest\nexit 7\n' | "${env_vm[@]}" make -s -C "$lab" vm >"$out" 2>&1 || rc=$?
	sed 's/^/    /' "$out"
	left=$(left_behind "$qemu" "$runs")
	if ! grep -qx 'in-the-guest' "$out" || ! grep -q 'Error 7' "$out"; then
		echo "exit 7: no shell ran the typed lines, or make vm did not end with its status (make: $rc)"
		bad=1
	elif [[ -n $left ]]; then
		echo "exit 7: left behind: $left"
		bad=1
	else
		echo "exit 7: the guest's shell ran the typed line, make vm failed with Error 7, nothing left"
	fi

	# 2. vm.sh killed, on a terminal: no QEMU, no run directory, the terminal as it was
	rm -f "$mark"
	FAKE_GUEST_HANGS=1 setsid script -qec "stty -g >$scratch/tty.before; $(printf '%q ' "${env_vm[@]}") make -s -C $lab vm; stty -g >$scratch/tty.after" \
		/dev/null </dev/null >"$out" 2>&1 &
	pid=$!
	if ! stop_make_vm kill "$pid" pkill -TERM -f "scripts/vm.sh -k $lab/kernel"; then
		bad=1
	elif [[ -n $left ]]; then
		echo "kill: left behind: $left"
		bad=1
	elif ! cmp -s "$scratch/tty.before" "$scratch/tty.after"; then
		echo "kill: the terminal was left changed: $(cat "$scratch/tty.after" 2>/dev/null) (before: $(cat "$scratch/tty.before"))"
		bad=1
	else
		echo "kill: nothing left, the terminal's settings back"
	fi

	# 3. SIGINT to the whole group (a Ctrl-C before the terminal is raw): nothing left. (A job that
	# this shell starts in the background ignores SIGINT: perl gives make the terminal's default.)
	rm -f "$mark"
	mkfifo "$scratch/stdin"
	exec {keep}<>"$scratch/stdin"	# a terminal nobody types on
	# shellcheck disable=SC2016 # perl's own variable
	setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "$ARGV[0]: $!"' "${env_vm[@]}" make -s -C "$lab" vm \
		<"$scratch/stdin" >"$out" 2>&1 &
	pid=$!
	if ! stop_make_vm SIGINT "$pid" kill -INT -- -"$pid"; then
		bad=1
	elif [[ -n $left ]] || ((rc == 0)); then
		echo "SIGINT: make exited $rc; left behind: ${left:-nothing}"
		bad=1
	else
		echo "SIGINT: make exited $rc, nothing left"
	fi
	exec {keep}>&-
	pkill -KILL -f "^/bin/bash $qemu" || true
	((bad == 0))
}

run_test make_vm_shell_leaves_nothing_behind "$@"
