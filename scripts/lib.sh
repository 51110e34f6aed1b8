# Common helpers for the lab scripts. Source it; do not run it.
# shellcheck shell=bash

LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# --help (or -h) as a script's first argument, before anything is checked or run: a script whose
# getopts has -h prints its own usage; any other prints its header comment, the lines after #!.
if [[ ${BASH_SOURCE[1]:-} == "$0" && ${1:-} =~ ^(-h|--help)$ ]]; then
	if grep -qE '^while getopts :?[a-zA-Z:]*h[a-zA-Z:]* ' "$0"; then
		set -- -h
	else
		sed -n '2,${/^#/!q;/shellcheck/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
	fi
fi

# BASE: which kernel the series is for. Each base has its facts in config/<base>/ (base.conf: the
# Debian package and version; benchmarks: its rows of the registry; bench.config: its config
# options) and its series in patches/<base>/; the cache keeps one directory per base.
DEFAULT_BASE=$(sed -n '/^[^#]/{s/[[:space:]].*//;p;q}' "$LAB_ROOT/config/default-base")
BASE=${BASE:-$DEFAULT_BASE}
lab_bases() {
	local d
	for d in "$LAB_ROOT"/config/*/base.conf; do
		d=${d%/base.conf}
		echo "${d##*/}"
	done | sort -V
}
if [[ ! $BASE =~ ^[0-9]+\.[0-9]+$ || ! -f $LAB_ROOT/config/$BASE/base.conf ]]; then
	echo "error: BASE=$BASE: expected one of: $(lab_bases | xargs) (config/<base>/base.conf)" >&2
	exit 1
fi
BASE_CONFIG=$LAB_ROOT/config/$BASE
# The base's facts, one kind a file (plain NAME=value lines): base.conf, the package and where
# Debian's archive serves it; possible-cpus.conf, how its kernel counts possible CPUs in QEMU
# (VM_OFFLINE_CPUS); tcg.conf, how many host threads TCG gives make regress's vCPUs
# (REGRESS_TCG_THREAD, single or multi; unset: VM_TCG_THREAD of config/vm.conf) and whether make
# regress runs the base's and the series' VMs side by side (REGRESS_JOBS, 1 or 2); toolchain.conf,
# the LLVM its selftests need where Debian's clang (14) does not do (SELFTESTS_LLVM for test_progs
# and the other suites, in make regress and check-debug; BENCH_LLVM for bench) and, with
# DEBUG_SELFTESTS_BTF=regress, that check-debug's suites compile against the regress kernel's BTF;
# series.conf, how git format-patch writes its series (SUBJECT_PREFIX, and BASE_COMMIT_TRAILER=1
# for a base-commit: trailer, which b4 reads). The others are optional; their defaults:
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
SELFTESTS_LLVM='' DEBUG_SELFTESTS_BTF='' BENCH_LLVM='' VM_OFFLINE_CPUS=absent REGRESS_TCG_THREAD=''
# shellcheck disable=SC2034 # read by regress.sh
REGRESS_JOBS=1
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
SUBJECT_PREFIX=PATCH BASE_COMMIT_TRAILER=0
# shellcheck source=/dev/null # the base's own file
. "$BASE_CONFIG/base.conf"
for _lab_conf in possible-cpus.conf tcg.conf toolchain.conf series.conf; do
	# shellcheck source=/dev/null
	[[ ! -f $BASE_CONFIG/$_lab_conf ]] || . "$BASE_CONFIG/$_lab_conf"
done
unset _lab_conf
# The VM's default CPUs, memory and time limits.
# shellcheck source=../config/vm.conf
. "$LAB_ROOT/config/vm.conf"

LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bpf-lab}
BASE_CACHE=$LAB_CACHE/$BASE				# everything of this base: tree, kernels, results
# ALLOW_BASE_VERSION=1: the base is the version base.sh found in the archive instead of the pinned one.
if [[ ${ALLOW_BASE_VERSION:-0} == 1 && -f $BASE_CACHE/base/allowed-version ]]; then
	BASE_PACKAGE_VERSION=$(cat "$BASE_CACHE/base/allowed-version")
fi
BASE_DIR=$BASE_CACHE/base/linux-$BASE_PACKAGE_VERSION	# pristine, extracted base
TREE=${TREE:-$BASE_CACHE/linux}				# git tree: base commit + series
BUILD_SRC=$BASE_CACHE/build-src				# worktree the kernels are built from
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
KERNELS=$BASE_CACHE/kernels				# built kernels, one dir per variant
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
RESULTS=$BASE_CACHE/results
BASE_TAG=lab-base					# tag of the base commit in $TREE
PATCHES=${LAB_PATCHES:-$LAB_ROOT/patches/$BASE}		# the series: NNNN-*.patch, 0000 the cover letter
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
PATCHES_SHOWN=${PATCHES#"$LAB_ROOT"/}			# the same, as messages name it (patches/6.1)
# How git format-patch writes the series (series.sh, mbox.sh), from series.conf
SERIES_FORMAT_OPTS=(--subject-prefix="$SUBJECT_PREFIX")
[[ $BASE_COMMIT_TRAILER != 1 ]] || SERIES_FORMAT_OPTS+=(--base="$BASE_TAG")
JOBS=${JOBS:-$(nproc)}
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
TRACEFS_BENCHS=trig-tp					# benchmarks of the registry that need tracefs

die() {
	echo "error: ${LAB_NOTE_PREFIX:-}$*" >&2
	exit 1
}

# bad_option OPT OPTARG USAGE: the one line for what getopts, silent (a leading ':' in its option
# string), gives as OPT ':' (an option without its value) or '?' (no such option).
bad_option() {
	[[ $1 != : ]] || die "-$2: needs a value ($3)"
	die "-$2: no such option ($3)"
}

note() {
	echo ">>> ${LAB_NOTE_PREFIX:-}$*" >&2
}

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

# guest_command ARG...: one shell command line that runs ARG... with each argument intact, for
# vm.sh, which runs its words joined by spaces as the guest's command (make regress's -d list holds
# globs, and test_progs' subtest names hold spaces and shell characters such as '<').
guest_command() {
	local line
	printf -v line '%q ' "$@"
	printf '%s\n' "${line% }"
}

# step "what" cmd args...: announce a long step, run it, print how long it took.
step() {
	local what=$1 start=$SECONDS rc=0
	shift
	note "$what ..."
	"$@" || rc=$?
	if ((rc)); then
		note "$what: FAILED after $((SECONDS - start))s"
		return "$rc"
	fi
	note "$what: done in $((SECONDS - start))s"
}

# vm_clock LOG...: the clock of VM runs whose messages (vm.sh's stderr) are in LOG...: wall-kvm when
# vm.sh ran them under KVM (ACCEL=kvm, or a usable /dev/kvm and no note of its falling back to TCG).
vm_clock() {
	[[ ${ACCEL:-} == kvm ]] && { echo wall-kvm; return; }
	if [[ ${ACCEL:-} == tcg || ! -w ${LAB_KVM_DEV:-/dev/kvm} ]] || grep -qs 'using TCG' "$@"; then echo wall-tcg; else echo wall-kvm; fi
}

need() {
	local cmd
	for cmd in "$@"; do
		command -v "$cmd" >/dev/null || die "missing '$cmd' (run: make deps)"
	done
}

# lab_make ARGS...: make of the kernel's or the selftests' Makefiles as a top-level make, also
# when the lab itself runs under make (make check-debug): 6.1's selftests Makefile sets OUTPUT
# only at MAKELEVEL 0, so an inherited MAKELEVEL=1 builds an in-tree test_progs with OUTPUT empty
# (-I/tools/include, "no such file: liburandom_read.so", rsync of an empty list to /).
lab_make() {
	env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES make "$@"
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

# remove_scratch DIR: DIR and every worktree made under it, in the tree of every base (also those
# of a test that failed half-way).
remove_scratch() {
	local dir=$1 tree wt
	for tree in "$TREE" "$LAB_CACHE"/*/linux; do
		[[ -d $tree/.git ]] || continue
		for wt in $(git -C "$tree" worktree list --porcelain 2>/dev/null | sed -n "s|^worktree \($dir/.*\)|\1|p"); do
			git -C "$tree" worktree remove --force "$wt" >/dev/null 2>&1 || true
		done
		git -C "$tree" worktree prune 2>/dev/null || true
	done
	rm -rf "$dir"
}

# list_entries FILE...: the entries of upstream-format lists (DENYLIST, ALLOWLIST): one per line,
# `#` comments and blank lines dropped; files that do not exist are empty
list_entries() {
	local f
	for f in "$@"; do
		[[ ! -f $f ]] || sed 's/#.*//; s/[[:space:]]*$//; s/^[[:space:]]*//; /^$/d' "$f"
	done
}

# What a KCSAN report, a lockdep report, a BUG or a WARN starts with in the kernel's messages.
SPLAT_RE='BUG:|WARNING:|possible recursive locking|possible circular locking|inconsistent lock state|sleeping function called from invalid context|INFO: task .* blocked'
# log_splats LOG: the first lines of the splats in a VM run's log, each once: kernel messages
# ("[ secs] ..."), from the console or from a `grep -n` of dmesg ("N:[ secs] ..."), that match
# SPLAT_RE. The console has those printed up to the guest's power-off; dmesg those below loglevel=5.
log_splats() {
	tr -d '\r' <"$1" | sed -E 's/^[0-9]+[:-]//' | RE=$SPLAT_RE awk '/^\[ *[0-9]+\.[0-9]+\] / && $0 ~ ENVIRON["RE"]' | sort -u
}

# unknown_splats KNOWN: of the splat lines on stdin, those that contain no entry of the list KNOWN
# (config/<base>/known-splats), in order.
unknown_splats() {
	KNOWN=$(list_entries "$1") awk 'BEGIN { n = split(ENVIRON["KNOWN"], k, "\n") }
		{ for (i = 1; i <= n; i++) if (index($0, k[i])) next; print }'
}

# config_dropped CONFIG FRAGMENT...: the options the fragments ask for (the last request of each,
# as olddefconfig reads a cat of them) that CONFIG does not have as asked, sorted; an option CONFIG
# does not mention is "not set".
config_dropped() {
	awk 'function val(line) {
		if (match(line, /^CONFIG_[A-Za-z0-9_]+=/)) { name = substr(line, 1, RLENGTH - 1); return substr(line, RLENGTH + 1) }
		if (match(line, /^# CONFIG_[A-Za-z0-9_]+ is not set$/)) { name = $2; return "n" }
		name = ""
	}
	FILENAME == final { v = val($0); if (name != "") got[name] = v; next }
	{ v = val($0); if (name != "") want[name] = v }
	END { for (n in want) if (want[n] != (n in got ? got[n] : "n")) print n }' \
		final="$1" "${@:2}" "$1" | sort
}

# patched_commit REV PATCH: REV with PATCH applied on top (git am), a commit of the tree kept as
# the tag lab-patched/<patch name>-<hash of REV and PATCH>; prints it. Lab variants and plants.
patched_commit() {
	local rev name tag wt
	rev=$(tree_commit "$1")
	name=$(basename "$2" .patch)
	tag=lab-patched/$name-$({ echo "$rev"; cat "$2"; } | sha1sum | cut -c1-8)
	if ! git -C "$TREE" rev-parse -q --verify "$tag" >/dev/null; then
		wt=$(mktemp -d "$BASE_CACHE/patched.XXXXXX")
		git -C "$TREE" worktree add -q --detach "$wt" "$rev"
		if ! "$LAB_ROOT/scripts/apply-series.sh" "$wt" "$2" >&2; then
			git -C "$TREE" worktree remove --force "$wt"
			return 1
		fi
		git -C "$TREE" tag "$tag" "$(git -C "$wt" rev-parse HEAD)"
		git -C "$TREE" worktree remove --force "$wt"
	fi
	git -C "$TREE" rev-parse "$tag^{commit}"
}

# commit_key DIR COMMIT and patch_key PATCH: the same line for a commit and the patch it came from
# (or that format-patch makes of it): git patch-id of the change, and a hash of the message.
commit_key() {
	local pid
	pid=$(git -C "$1" show "$2" | git -C "$1" patch-id --stable | cut -c1-40)
	echo "${pid:-empty} $(git -C "$1" log -1 --format=%B "$2" | git stripspace | sha1sum | cut -c1-40)"
}
patch_key() {
	local tmp pid subject
	tmp=$(mktemp -d)
	pid=$(git -C "$TREE" patch-id --stable <"$1" | cut -c1-40)
	subject=$(git mailinfo "$tmp/msg" "$tmp/patch" <"$1" | sed -n 's/^Subject: //p')
	echo "${pid:-empty} $( (echo "$subject"; echo; cat "$tmp/msg") | git stripspace | sha1sum | cut -c1-40)"
	rm -rf "$tmp"
}

# registry: the benchmark registry of this base, one "family name where args" line an entry: the
# base's own rows (config/<base>/benchmarks) first, then those of every base (config/benchmarks).
registry() {
	cat "$BASE_CONFIG/benchmarks" "$LAB_ROOT/config/benchmarks" 2>/dev/null | awk '$1 !~ /^#/ && NF'
}

# registry_select WHERE [NAME_OR_FAMILY...]: the entries of the registry that can run WHERE
# (vm or host) and match one of the names or families (every entry when none is given), one
# "family name args" line each, in the registry's order.
registry_select() {
	local where=$1 family name places args want
	shift
	while read -r family name places args; do
		[[ -z $family || $family == \#* ]] && continue
		[[ ,$places, == *,$where,* ]] || continue
		if (($#)); then
			for want in "$@"; do
				[[ $want == "$name" || $want == "$family" ]] && break
			done
			[[ $want == "$name" || $want == "$family" ]] || continue
		fi
		echo "$family $name $args"
	done < <(registry)
}

# registry_unknown NAME_OR_FAMILY...: those of the arguments that are neither the name nor the
# family of any entry of the registry, wherever it runs.
registry_unknown() {
	local want
	for want in "$@"; do
		registry | awk -v w="$want" '$1 == w || $2 == w { found = 1 } END { exit !found }' ||
			echo "$want"
	done
}

# tree_commit COMMIT-ISH: the full id of a commit of the tree, or a one-line error.
tree_commit() {
	git -C "$TREE" rev-parse --verify -q "$1^{commit}" || die "no commit '$1' in $TREE (run: make tree)"
}

# checkout_commit WORKTREE COMMIT: check COMMIT out in one of the lab's build worktrees, fetching it
# first when the worktree belongs to another tree (TREE= pointing at a second tree).
checkout_commit() {
	local dir=$1 commit=$2
	if ! git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
		git -C "$dir" fetch -q "$TREE" "+refs/heads/*:refs/lab-fetched/*"
	fi
	git -C "$dir" checkout -q -f --detach "$commit"
}

# series_patches [DIR]: the series' patches in DIR (default $PATCHES), in order, one path a line:
# every NNNN-*.patch except the cover letter, 0000-cover-letter.patch. The one definition of
# "the series' patches"; every script that needs them asks here.
series_patches() {
	local dir=${1:-$PATCHES} f
	for f in "$dir"/[0-9][0-9][0-9][0-9]-*.patch; do
		[[ -e $f && ${f##*/} != 0000-* ]] && echo "$f"
	done
	return 0
}

# series_hash: what the tree's stamp records of patches/ (and the base version it applies to).
series_hash() {
	local patches
	mapfile -t patches < <(series_patches "$PATCHES")
	(echo "$BASE_PACKAGE_VERSION"; cat "${patches[@]}" /dev/null) | sha1sum | cut -c1-40
}

# scratch_worktree_of TREE DIR PATCH...: a detached worktree of TREE's base commit in DIR that checks
# out only the files the patches touch (git am needs nothing else), which takes a second instead of
# a full 75,000-file checkout. Remove it with: git -C TREE worktree remove --force DIR
scratch_worktree_of() {
	local tree=$1 dir=$2 files
	shift 2
	git -C "$tree" worktree add -q --no-checkout --detach "$dir" "$BASE_TAG"
	git -C "$dir" read-tree HEAD
	# The files the patches change that the base has (a patch may change a file an earlier one adds).
	files=$(sed -n 's|^--- a/||p' "$@" /dev/null | sort -u)
	# shellcheck disable=SC2086 # one word per file
	[[ -z $files ]] || files=$(git -C "$dir" ls-files -- $files)
	if [[ -n $files ]]; then
		# shellcheck disable=SC2086 # one word per file
		git -C "$dir" checkout HEAD -- $files
	fi
}

# series_cc PATCH...: the Cc lines of the cover letter, from get_maintainer.pl of the pristine base
# (MAINTAINERS is not part of the series), sorted, as get_maintainer's order varies.
series_cc() {
	(($#)) || return 0
	(cd "$BASE_DIR" && perl scripts/get_maintainer.pl --no-rolestats --no-git --no-git-fallback "$@") |
		sort -u | sed 's/^/Cc: /'
}

# fill_cover_letter FILE TEXT CC_FILE: in the first message of FILE (a cover letter from git
# format-patch --cover-letter, alone or at the head of a --stdout mbox), put the subject and text
# of TEXT (first line: subject) and the Cc lines of CC_FILE in place of git's placeholders, and
# fix its date (scripts/cover_letter.py).
fill_cover_letter() {
	python3 "$LAB_ROOT/scripts/cover_letter.py" "$@"
}

# check_knobs: every knob the user can set (README, make help) that is set must have an allowed
# value; checked when any script starts, so before anything is built. One line names the knob
# and what it allows.
check_knobs() {
	local v unknown max=255 min_cpus=${CPUS:-$VM_CPUS}
	[[ ${ACCEL:-} == kvm ]] && max=1024
	knob_bad() { die "$1=${!1}: $2"; }
	[[ -z ${ACCEL:-} || $ACCEL == kvm || $ACCEL == tcg ]] || knob_bad ACCEL "expected kvm, tcg or unset (probe)"
	[[ -z ${ICOUNT:-} || $ICOUNT == 0 || $ICOUNT == 1 ]] || knob_bad ICOUNT "expected 0 or 1"
	[[ -z ${RECORD:-} || $RECORD == 0 || $RECORD == 1 ]] || knob_bad RECORD "expected 0 or 1 (1: write a record)"
	[[ -z ${CPUS:-} || ($CPUS =~ ^[1-9][0-9]*$ && CPUS -le 255) ]] || knob_bad CPUS "expected online CPUs, 1 to 255"
	[[ ${ICOUNT:-0} == 0 || -z ${CPUS:-} || $CPUS == 1 ]] ||
		knob_bad CPUS "ICOUNT=1 runs one online CPU: expected 1 or unset"
	[[ ${ICOUNT:-0} == 1 ]] && min_cpus=1
	if [[ -n ${MAXCPUS:-} ]]; then
		[[ $MAXCPUS =~ ^[1-9][0-9]*$ && $MAXCPUS -le $max && $MAXCPUS -ge $min_cpus ]] ||
			knob_bad MAXCPUS "expected possible CPUs, $min_cpus (the online CPUs) to $max$([[ $max == 255 ]] && echo ' (more only with ACCEL=kvm: TCG has no x2APIC)')"
	fi
	for v in ${POSSIBLE:-}; do
		[[ $v =~ ^[1-9][0-9]*$ && $v -le $max && $v -ge ${CPUS:-$VM_CPUS} ]] ||
			knob_bad POSSIBLE "'$v': expected possible CPU counts, ${CPUS:-$VM_CPUS} (the online CPUs) to $max"
	done
	[[ -z ${TIMEOUT:-} || $TIMEOUT =~ ^[1-9][0-9]*$ ]] || knob_bad TIMEOUT "expected a positive number of seconds"
	[[ -z ${SILENCE:-} || $SILENCE =~ ^[1-9][0-9]*$ ]] || knob_bad SILENCE "expected a positive number of seconds"
	[[ -z ${LIMIT:-} || $LIMIT =~ ^[1-9][0-9]*$ ]] || knob_bad LIMIT "expected a positive number of seconds (a test's time limit)"
	[[ -z ${VMS:-} || $VMS == 1 || $VMS == 2 ]] || knob_bad VMS "expected 1 (one VM at a time) or 2 (the base's and the series' side by side)"
	[[ -z ${MEM:-} || $MEM =~ ^[1-9][0-9]*[MG]$ ]] || knob_bad MEM "expected a size like 512M or 2G"
	if [[ -n ${BENCHS:-} ]]; then
		# shellcheck disable=SC2086 # a list of words
		unknown=$(registry_unknown $BENCHS | xargs)
		[[ -z $unknown ]] ||
			knob_bad BENCHS "unknown '$unknown'; expected names or families of the $BASE registry (config/benchmarks, config/$BASE/benchmarks): $(registry | awk '{ f[$1] } END { for (k in f) printf "%s ", k }')or their names"
	fi
	unset -f knob_bad
}
check_knobs
