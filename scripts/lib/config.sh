# The base and its config, the cache's paths, the one die(), and the knobs' check (part of
# scripts/lib.sh: source that, not this).
# shellcheck shell=bash

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

# positive N [MAX]: N is a positive whole number, 1, 2, ... (digits only, no leading zero), and at
# most MAX when MAX is given: the lab's one check of a count, a number of seconds or of CPUs (each
# caller says its own error line). N is compared as digits first: no overflow takes a long N in.
positive() {
	[[ $1 =~ ^[1-9][0-9]*$ ]] || return 1
	[[ -z ${2:-} ]] || ((${#1} < ${#2} || (${#1} == ${#2} && $1 <= $2)))
}

note() {
	echo ">>> ${LAB_NOTE_PREFIX:-}$*" >&2
}

need() {
	local cmd
	for cmd in "$@"; do
		command -v "$cmd" >/dev/null || die "missing '$cmd' (run: make deps)"
	done
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

# build_logged NAME WHAT LOG CMD...: the build step WHAT (step, its lines naming LOG), CMD... with
# its output in LOG; when it fails, the log's first 20 error lines on stderr and one line, "NAME
# failed, see LOG", and exit (die). The build of scripts/kernel.sh and of scripts/bench-build.sh.
build_logged() {
	local name=$1 what=$2 log=$3
	shift 3
	step "$what (log: $log)" output_to "$log" "$@" && return
	{ grep -E 'error|Error' "$log" || true; } | head -n 20 >&2
	die "$name failed, see $log"
}

# output_to FILE CMD...: CMD... with its stdout and stderr in FILE.
output_to() {
	local file=$1
	shift
	"$@" >"$file" 2>&1
}

# BASE: which kernel the series is for. Each base has its facts in config/<base>/ (base.conf: the
# Debian package and version; benchmarks: its rows of the registry; bench.config: its config
# options) and its series in patches/<base>/; the cache keeps one directory per base.
lab_bases() {
	local d
	for d in "$LAB_ROOT"/config/*/base.conf; do
		d=${d%/base.conf}
		echo "${d##*/}"
	done | sort -V
}
# TREE=: a kernel checkout of the user's own, whose version picks the base (scripts/lib/own-tree.sh)
# shellcheck source=scripts/lib/own-tree.sh
. "$LAB_ROOT/scripts/lib/own-tree.sh"
DEFAULT_BASE=$(sed -n '/^[^#]/{s/[[:space:]].*//;p;q}' "$LAB_ROOT/config/default-base")
BASE=${BASE:-$DEFAULT_BASE}
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
# series.conf, how git format-patch writes its series (SUBJECT_PREFIX, SERIES_VERSIONS, and
# BASE_COMMIT_TRAILER=1 for a base-commit: trailer, which b4 reads). The others are optional; their
# defaults:
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
SELFTESTS_LLVM='' DEBUG_SELFTESTS_BTF='' BENCH_LLVM='' KERNEL_LLVM='' LLVM_PAHOLE='' LLVM_PAHOLE_APT_SOURCE=''
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
VM_OFFLINE_CPUS=absent REGRESS_TCG_THREAD=''
# shellcheck disable=SC2034 # read by regress.sh
REGRESS_JOBS=1
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
SUBJECT_PREFIX=PATCH BASE_COMMIT_TRAILER=0 SERIES_VERSIONS=''
# shellcheck source=/dev/null # the base's own file
. "$BASE_CONFIG/base.conf"
for _lab_conf in possible-cpus.conf tcg.conf toolchain.conf series.conf; do
	# shellcheck source=/dev/null
	[[ ! -f $BASE_CONFIG/$_lab_conf ]] || . "$BASE_CONFIG/$_lab_conf"
done
unset _lab_conf
# The VM's default CPUs, memory and time limits.
# shellcheck source=config/vm.conf
. "$LAB_ROOT/config/vm.conf"

LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bpf-lab}
BASE_CACHE=$LAB_CACHE/$BASE				# everything of this base: tree, kernels, results
# ALLOW_BASE_VERSION=1: the base is the version base.sh found in the archive instead of the pinned one.
if [[ ${ALLOW_BASE_VERSION:-0} == 1 && -f $BASE_CACHE/base/allowed-version ]]; then
	BASE_PACKAGE_VERSION=$(cat "$BASE_CACHE/base/allowed-version")
fi
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
BASE_DIR=$BASE_CACHE/base/linux-$BASE_PACKAGE_VERSION	# pristine, extracted base
TREE=${LAB_TREE:-$BASE_CACHE/linux}			# git tree: base commit + series (LAB_TREE: another, for tests)
WORK_CACHE=$BASE_CACHE					# the tree's build worktrees and object directories
own_tree_paths						# TREE=: the lab's clone of the user's tree, and its own
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
BUILD_SRC=$WORK_CACHE/build-src				# worktree the kernels are built from
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
KERNELS=$BASE_CACHE/kernels				# built kernels, one dir per variant
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
RESULTS=$BASE_CACHE/results
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
BASE_TAG=lab-base					# tag of the base commit in $TREE
PATCHES=${LAB_PATCHES:-$LAB_ROOT/patches/$BASE}		# the series: NNNN-*.patch, 0000 the cover letter
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
PATCHES_SHOWN=${PATCHES#"$LAB_ROOT"/}			# the same, as messages name it (patches/6.1)
JOBS=${JOBS:-$(nproc)}
# The kernels' toolchain. LLVM=1: clang-N and ld.lld-N of the base's KERNEL_LLVM (toolchain.conf),
# BPF CI's second build, for the kernel and for the selftests' userspace built against it; unset
# or 0: gcc. KERNEL_TOOLCHAIN is its part of the names of the kernels, object directories and
# selftests builds in the cache ('' for gcc: the gcc builds keep their names), so that a gcc and
# an LLVM build never share one; KERNEL_MAKE_ARGS is what the kernel's and the selftests' make
# take for it (lab_make drops an inherited LLVM, which make would read as "use clang");
# KERNEL_PAHOLE, the pahole of the LLVM build where the base names one (LLVM_PAHOLE, fetched by
# scripts/pahole.sh; part of KERNEL_TOOLCHAIN, not of the object directory's name: KERNEL_OBJ_TAG).
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
KERNEL_OBJ_TAG='' KERNEL_TOOLCHAIN='' KERNEL_MAKE_ARGS=() KERNEL_PAHOLE=''
if [[ ${LLVM:-0} == 1 && -n $KERNEL_LLVM ]]; then
	KERNEL_OBJ_TAG=llvm$KERNEL_LLVM KERNEL_TOOLCHAIN=llvm$KERNEL_LLVM
	KERNEL_MAKE_ARGS=(LLVM="-$KERNEL_LLVM")
	if [[ -n $LLVM_PAHOLE ]]; then
		KERNEL_PAHOLE=$LAB_CACHE/pahole/$LLVM_PAHOLE/pahole
		KERNEL_TOOLCHAIN+=-pahole$LLVM_PAHOLE
		KERNEL_MAKE_ARGS+=(PAHOLE="$KERNEL_PAHOLE")
	fi
fi

# kernel_obj CONFIG: the object directory of CONFIG's kernels (bench, selftests, debug, regress)
# built with the toolchain of LLVM.
kernel_obj() {
	echo "$WORK_CACHE/obj/$1${KERNEL_OBJ_TAG:+-$KERNEL_OBJ_TAG}"
}

# list_entries FILE...: the entries of upstream-format lists (DENYLIST, ALLOWLIST): one per line,
# `#` comments and blank lines dropped; files that do not exist are empty
list_entries() {
	local f
	for f in "$@"; do
		[[ ! -f $f ]] || sed 's/#.*//; s/[[:space:]]*$//; s/^[[:space:]]*//; /^$/d' "$f"
	done
}

# check_knobs: every knob the user can set (README, make help) that is set must have an allowed
# value. Every script that starts work calls it first (after own_group "$@"), so a bad knob stops
# it before anything is built; vm.sh calls it after its options, which set the knobs of the same
# names (-c CPUS, -p MAXCPUS, -m MEM, -t TIMEOUT, -s SILENCE, -i ICOUNT=1). One line names the
# knob and what it allows.
check_knobs() {
	local v unknown max=255 min_cpus=${CPUS:-$VM_CPUS}
	[[ ${ACCEL:-} == kvm ]] && max=1024
	knob_bad() { die "$1=${!1}: $2"; }
	[[ -z ${ACCEL:-} || $ACCEL == kvm || $ACCEL == tcg ]] || knob_bad ACCEL "expected kvm, tcg or unset (probe)"
	[[ -z ${ICOUNT:-} || $ICOUNT == 0 || $ICOUNT == 1 ]] || knob_bad ICOUNT "expected 0 or 1"
	[[ -z ${RECORD:-} || $RECORD == 0 || $RECORD == 1 ]] || knob_bad RECORD "expected 0 or 1 (1: write a record)"
	[[ -z ${DRY_RUN:-} || $DRY_RUN == 0 || $DRY_RUN == 1 ]] ||
		knob_bad DRY_RUN "expected 0 or 1 (1: print the commands, build and boot nothing)"
	[[ -z ${LLVM:-} || $LLVM == 0 || $LLVM == 1 ]] ||
		knob_bad LLVM "expected 0 or 1 (1: the kernels built with clang and lld, KERNEL_LLVM of config/$BASE/toolchain.conf)"
	[[ ${LLVM:-0} == 0 || -n $KERNEL_LLVM ]] ||
		knob_bad LLVM "base $BASE names no KERNEL_LLVM in config/$BASE/toolchain.conf: its kernels build with gcc only"
	[[ -z ${CPUS:-} ]] || positive "$CPUS" 255 || knob_bad CPUS "expected online CPUs, 1 to 255"
	[[ ${ICOUNT:-0} == 0 || -z ${CPUS:-} || $CPUS == 1 ]] ||
		knob_bad CPUS "ICOUNT=1 runs one online CPU: expected 1 or unset"
	[[ ${ICOUNT:-0} == 1 ]] && min_cpus=1
	if [[ -n ${MAXCPUS:-} ]]; then
		{ positive "$MAXCPUS" "$max" && ((MAXCPUS >= min_cpus)); } ||
			knob_bad MAXCPUS "expected possible CPUs, $min_cpus (the online CPUs) to $max$([[ $max == 255 ]] && echo ' (more only with ACCEL=kvm: TCG has no x2APIC)')"
	fi
	for v in ${POSSIBLE:-}; do
		{ positive "$v" "$max" && ((v >= ${CPUS:-$VM_CPUS})); } ||
			knob_bad POSSIBLE "'$v': expected possible CPU counts, ${CPUS:-$VM_CPUS} (the online CPUs) to $max"
	done
	[[ -z ${TIMEOUT:-} ]] || positive "$TIMEOUT" || knob_bad TIMEOUT "expected a positive number of seconds"
	[[ -z ${SILENCE:-} ]] || positive "$SILENCE" || knob_bad SILENCE "expected a positive number of seconds"
	[[ -z ${LIMIT:-} ]] || positive "$LIMIT" || knob_bad LIMIT "expected a positive number of seconds (a test's time limit)"
	[[ -z ${WHOLE_LIMIT:-} ]] || positive "$WHOLE_LIMIT" ||
		knob_bad WHOLE_LIMIT "expected a positive number of seconds (a whole suite's time limit)"
	[[ -z ${VMS:-} || $VMS == 1 || $VMS == 2 ]] || knob_bad VMS "expected 1 (one VM at a time) or 2 (the base's and the series' side by side)"
	[[ -z ${MEM:-} || $MEM =~ ^[1-9][0-9]*[MG]$ ]] || knob_bad MEM "expected a size like 512M or 2G"
	[[ -z ${TCG_THREAD:-} || $TCG_THREAD == multi || $TCG_THREAD == single ]] ||
		knob_bad TCG_THREAD "expected multi (a host thread per vCPU) or single"
	if [[ -n ${BENCHS:-} ]]; then
		# shellcheck disable=SC2086 # a list of words
		unknown=$(registry_unknown $BENCHS | xargs)
		[[ -z $unknown ]] ||
			knob_bad BENCHS "unknown '$unknown'; expected names or families of the $BASE registry (config/benchmarks, config/$BASE/benchmarks): $(registry | awk '{ f[$1] } END { for (k in f) printf "%s ", k }')or their names"
	fi
	unset -f knob_bad
}
