# Processes and locks: waiting for children, a script's own process group, commands a signal
# stops, the build and tree locks, make as a top-level make (part of scripts/lib.sh).
# shellcheck shell=bash

# wait_for PID...: wait until every PID has ended, also when a signal this script traps ends a wait
# early (bash runs the trap, and wait returns), so that the script never ends before its children
# have stopped; their statuses go to wait_status[] in order.
wait_for() {
	local pid rc
	wait_status=()
	for pid in "$@"; do
		while :; do
			rc=0
			wait "$pid" || rc=$?
			kill -0 "$pid" 2>/dev/null || break
		done
		wait_status+=("$rc")
	done
}

# own_group "$@": the first command of a script that runs long children (make, compilers, QEMU,
# other lab scripts). Run from a shell or make, it runs the script again, as the leader of a
# process group of its own, and waits for it; a SIGINT, SIGTERM or SIGHUP of this first process is
# passed on to that whole group. So a `kill` of the script stops everything it started, as Ctrl-C
# does: a killed bash leaves its children running, and bash runs a trap only once its foreground
# command ended. When the script ends of the signal, the first process then dies of it too, so
# that a calling shell stops as it would on Ctrl-C. A lab script started by another one (or by a
# test under check.sh, which stops each test's process group) stays in the group it was started
# in: LAB_OWN_GROUP is exported to every process below. The script's stdin is passed on, but for
# a terminal (a process group in the background that read the terminal would be stopped), and git
# gets no pager. Ctrl-Z stops the first process only.
own_group() {
	[[ ${BASH_SOURCE[1]:-} == "$0" ]] || return 0	# sourced, not run: not the script's to do
	[[ -z ${LAB_OWN_GROUP:-} ]] || return 0
	local child rc sig
	export LAB_OWN_GROUP=1 GIT_PAGER=cat
	_own_group_sig=''
	set -m
	if [[ -t 0 ]]; then
		"$BASH" "$0" "$@" </dev/null &
	else
		"$BASH" "$0" "$@" &
	fi
	child=$!
	set +m
	for sig in INT TERM HUP; do
		# shellcheck disable=SC2064 # expanded now: the group and the signal
		trap "_own_group_sig=$sig; kill -$sig -- -$child 2>/dev/null || true; kill -CONT -- -$child 2>/dev/null || true" "$sig"
	done
	wait_for "$child"
	rc=${wait_status[0]}
	if [[ -n $_own_group_sig ]] && ((rc > 128)); then
		trap - "$_own_group_sig"
		kill -s "$_own_group_sig" $$
	fi
	exit "$rc"
}

# run_stoppable CMD...: run CMD and return its status, as a foreground command would, except that
# a SIGINT or SIGTERM of this script stops CMD (with SIGTERM) rather than waiting for it to end:
# bash runs a trap only once the foreground command ended, and a VM can run for hours. Sets
# stop_requested=1 when that happened; puts the caller's traps of INT and TERM back.
run_stoppable() {
	local saved rc
	saved=$(trap -p INT TERM)
	# shellcheck disable=SC2034 # read by the caller
	stop_requested=0
	"$@" &
	_stoppable_pid=$!
	trap 'stop_requested=1; kill -TERM "$_stoppable_pid" 2>/dev/null || true' INT TERM
	wait_for "$_stoppable_pid"
	rc=${wait_status[0]}
	trap - INT TERM
	eval "$saved"
	return "$rc"
}

# Builds share one worktree ($BUILD_SRC): hold this lock from checkout to the end of the build.
lock_build_src() {
	[[ -z ${LAB_BUILD_LOCKED:-} ]] || return 0	# a parent holds it (children inherit fd 9)
	export LAB_BUILD_LOCKED=1
	mkdir -p "$BASE_CACHE"
	exec 9>"$BASE_CACHE/build-src.lock"
	if ! flock -n 9; then
		note "waiting for another build in $BUILD_SRC"
		flock 9
	fi
}

# lock_tree: hold a lock on $TREE (and, inside base.sh, on the base) until the script ends, so
# that two runs on one cache never rebuild the same tree at once.
lock_tree() {
	[[ -z ${LAB_TREE_LOCKED:-} ]] || return 0	# a parent holds it (children inherit fd 8)
	export LAB_TREE_LOCKED=1
	mkdir -p "$(dirname "$TREE")"
	exec 8>"$TREE.lock"
	if ! flock -n 8; then
		note "waiting for another run on $TREE"
		flock 8
	fi
}

# lab_make ARGS...: make of the kernel's or the selftests' Makefiles as a top-level make, also
# when the lab itself runs under make (make check-debug): 6.1's selftests Makefile sets OUTPUT
# only at MAKELEVEL 0, so an inherited MAKELEVEL=1 builds an in-tree test_progs with OUTPUT empty
# (-I/tools/include, "no such file: liburandom_read.so", rsync of an empty list to /).
# An LLVM knob of the lab's own (LLVM=1, in the environment since make exports its command-line
# variables) is not passed on: the kernel's Makefiles read any non-empty LLVM, 0 too, as "build
# with clang". The builds that want LLVM say so (KERNEL_MAKE_ARGS).
lab_make() {
	env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u LLVM make "$@"
}
