#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Userspace harness for kernel/bpf/percpu_freelist.c (like tools/testing/radix-tree):
# the unmodified kernel file is compiled against the kernel's own tools/include, with
# shim/ for what that lacks, and linked with a GoogleTest / Google Benchmark driver.
#
#   run.sh [test]   build; GoogleTest tests; the same tests (stress included) under TSan
#   run.sh bench    Google Benchmark, base vs series side by side (one thread)
#   run.sh mt [--threads N] [VERSION...]
#                   multi-threaded benchmark, one pinned thread per online CPU (or N),
#                   every scenario, the versions interleaved (default: base series); a
#                   VERSION is base, series, or NAME of a lab variant (lab/variants/index:
#                   NAME-<base> first, else NAME), made from its parent
#   run.sh count [VERSION...]
#                   instructions per operation, exact (callgrind, the difference of two
#                   run lengths: count_run.py), of pcpu_freelist_push() and _pop() in
#                   every case of PFL_COUNT_CASES (default: own, ownflip and handoff at
#                   64 possible CPUs, exhausted at 64 and 4096); versions as for mt
#                   (default: base series); PFL_COUNT_GATE=NAME: NAME's own and ownflip
#                   counts at most the first version's, or exit 1
#   run.sh kobj VERSION...
#                   compile each VERSION's percpu_freelist.c as the lab's bench kernel
#                   object (the base's kernel built first: make kernel REV=lab-base), in the
#                   lab's build worktree under its lock; print VERSION=OBJECT lines, objects
#                   under $PFL_OBJ/kobj/ (for fastpath.py: the static count of a fast path)
#   run.sh src VERSION
#                   print the directory holding VERSION's two files (as FREELIST_SRC_DIR takes)
#   run.sh sim VERSION...
#                   the cost model (mt_model.py, a model): events per op simulated at
#                   2, 16, 64 and 256 CPUs (PFL_SIM_CPUS), priced with the costs in the
#                   file PFL_COSTS (run.sh calibrate), checked at 2 CPUs against
#                   PFL_NATIVE (the JSON of run.sh mt); PFL_SIM_ROBBABLE=1: a storm's
#                   churner can be robbed (its pop, hold and push are steps of their own)
#   run.sh calibrate
#                   the per-event costs of this machine, for the model
#   run.sh plant NAME...
#                   lab/plants/NAME.patch on the series, or on the variant its name
#                   starts with (freelist-v3-..., freelist-v4-...), in a scratch copy:
#                   the tests must fail
#   run.sh all      test and bench
#
# Environment:
#   FREELIST_TREE     git tree to take the file from  (default: the lab's tree, scripts/lab-path.sh TREE)
#   FREELIST_BASE     rev of the "base" version        (default: the lab's base tag, lab-base)
#   FREELIST_REV      rev of the "series" version      (default HEAD)
#   FREELIST_KSRC     a pristine kernel source instead of a tree (e.g. 7.3 before the lab
#                     has BASE=7.3): its file is the base, there is no series
#   FREELIST_SRC_DIR  dir with percpu_freelist.c/.h; replaces the series version
#                     (test: only this version is tested; bench: base vs this)
#   PFL_STRESS_OPS        stress ops, normal build (default 10000000)
#   PFL_TSAN_STRESS_OPS   stress ops under TSan    (default 10000000)
#   PFL_STRESS_THREADS    stress worker threads    (default 6)
#   PFL_TIMEOUT           seconds per test binary  (default 120)
#   PFL_BENCH_MIN_TIME    seconds per benchmark    (default 0.1)
#   PFL_BENCH_REPS        repetitions, median used (default 3)
#   PFL_MT_REPS           mt: interleaved repetitions (default 10)
#   PFL_MT_MS             mt: milliseconds per run    (default 200)
#   PFL_MT_CASES          mt: 'WORKLOAD:POSSIBLE[:NODES] ...' (default: mt_run.py's)
#   PFL_MT_GATE           mt: 1 = gate the race cases (mt_run.py --gate)
#   RECORD                mt, count: 1 = also write the run as a record (scripts/readout.py records),
#                         records/<base>/mt/<date>-$PFL_MT_NAME (default: mt, or count)
#   PFL_MT_TALLY          mt: 1 = the tally build (pcpu_freelist_mtt): also the
#                         storm roles' counters per op (pops with a node, locks,
#                         remote locks, locks that waited)
#   PFL_OBJ               build products           (default: the lab's cache of the base,
#                         scripts/lab-path.sh BASE_CACHE, /obj/pcpu_freelist)
# Build products live only under $PFL_OBJ, in directories named after a hash
# of the tested file contents, so identical versions are built once.

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LAB_ROOT=$(cd "$HERE/../../.." && pwd)	# the lab around the harness: its tree, variants, plants, records

die() {
	echo "error: $*" >&2
	exit 1
}
note() {
	echo ">>> $*" >&2
}
case ${1:-} in
-h | --help)
	sed -n '4,${/^#/!q;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
	exit 0
	;;
esac

# lab NAME: a fact of the lab (scripts/lab-path.sh: TREE, BASE, BASE_CACHE, BASE_TAG, which checks
# the lab's knobs), asked only for what FREELIST_* and PFL_OBJ leave unset: with FREELIST_KSRC and
# PFL_OBJ the harness runs without the lab.
lab() {
	"$LAB_ROOT/scripts/lab-path.sh" "$1"
}
OBJ=${PFL_OBJ:-$(lab BASE_CACHE)/obj/pcpu_freelist} || exit 1
KSRC=${FREELIST_KSRC:-}
if [ -z "$KSRC" ]; then
	TREE=${FREELIST_TREE:-$(lab TREE)} || exit 1
	BASE_REV=${FREELIST_BASE:-$(lab BASE_TAG)} || exit 1
fi
SERIES_REV=${FREELIST_REV:-HEAD}
FILES=(percpu_freelist.c percpu_freelist.h)

# names DIR GLOB: the files of DIR matching GLOB, without .patch, on one line
names() {
	local f found=()
	for f in "$1"/$2; do
		[[ ! -e $f ]] || found+=("$(basename "$f" .patch)")
	done
	echo "${found[*]}"
}

# Store a directory holding FILES under $OBJ/src/<hash>; print that path.
store() {
	local dir=$1 key

	for f in "${FILES[@]}"; do
		[ -f "$dir/$f" ] || die "$dir/$f missing"
	done
	key=$(cd "$dir" && cat "${FILES[@]}" | sha256sum | cut -c1-12)
	if [ ! -d "$OBJ/src/$key" ]; then
		if ! { mkdir -p "$OBJ/src" && cp -r "$dir" "$OBJ/src/$key.tmp.$$" &&
			mv "$OBJ/src/$key.tmp.$$" "$OBJ/src/$key"; }; then
			die "cannot store $dir"
		fi
	fi
	echo "$OBJ/src/$key"
}

# Extract FILES at git rev $1 of $TREE; print the stored directory.
extract() {
	local rev=$1 tmp f

	tmp=$(mktemp -d) || die mktemp
	for f in "${FILES[@]}"; do
		git -C "$TREE" show "$rev:kernel/bpf/$f" >"$tmp/$f" ||
			die "cannot read kernel/bpf/$f at $rev in $TREE"
	done
	store "$tmp"
	rm -rf "$tmp"
}

# The tested kernel's tools/include, stored under $OBJ/tools/<hash>; print its path.
tools_include() {
	local key tmp

	if [ -n "$KSRC" ]; then
		echo "$KSRC/tools/include"
		return
	fi
	key=$(git -C "$TREE" rev-parse "$BASE_REV:tools/include") || die "no tools/include at $BASE_REV in $TREE"
	if [ ! -d "$OBJ/tools/$key" ]; then
		tmp=$OBJ/tools/$key.tmp.$$
		if ! { mkdir -p "$tmp" && git -C "$TREE" archive "$BASE_REV" tools/include | tar -x -C "$tmp" &&
			mv "$tmp" "$OBJ/tools/$key"; }; then
			die "cannot extract tools/include of $BASE_REV"
		fi
	fi
	echo "$OBJ/tools/$key/tools/include"
}

# The kernel version whose variants apply (NAME-<version>.patch first).
kversion() {
	if [ -f "$KSRC/Makefile" ]; then
		awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { print v "." $3; exit }' "$KSRC/Makefile"
	else
		lab BASE
	fi
}

# patched_store DIR PATCH WHAT: the files of stored DIR with PATCH applied, stored; print that path.
# WHAT names DIR in the error when PATCH does not apply.
patched_store() {
	local tmp

	tmp=$(mktemp -d) || die mktemp
	if ! { cp "$1"/* "$tmp"/ && patch -s -p3 -d "$tmp" <"$2" >/dev/null; }; then
		rm -rf "$tmp"
		die "$2 does not apply to $3"
	fi
	store "$tmp"
	rm -rf "$tmp"
}

# variant NAME: the lab variant NAME of this version (lab/variants/index, scripts/lib/variants.sh:
# NAME-<version> first), made from its root, the base or the series, by its parents' patches and
# its own in turn; print the stored directory.
variant() {
	local steps step dir patch

	mapfile -t steps < <("$LAB_ROOT/scripts/lab-variant.sh" steps "$1" "$VERSION")
	((${#steps[@]} > 1)) || exit 2
	dir=$base
	[ "${steps[0]}" = base ] || dir=$series
	for step in "${steps[@]:1}"; do
		patch=$("$LAB_ROOT/scripts/lab-variant.sh" patch "$step" "$dir") || exit 2
		dir=$(patched_store "$dir" "$patch" "$(basename "$dir"), $step's parent") || exit 2
	done
	echo "$dir"
}

# build <src dir> <plain|tsan> <test|bench|mt|sim>: print the binary.
build() {
	local src=$1 mode=$2 what=$3 o san=

	# The dependency files name the harness sources by absolute path, so each checkout of the
	# harness (CI clones to a new path every run) gets its own build directory.
	o=$OBJ/$mode/$(basename "$src")-$(echo "$HERE $TOOLS" | sha1sum | cut -c1-8)
	[ "$mode" = tsan ] && san=SAN=thread
	make -s -j1 -C "$HERE" SRC="$src" O="$o" TOOLS_INCLUDE="$TOOLS" $san "$what" >&2 || return 1
	echo "$o/pcpu_freelist_$what"
}

FAILED=()

check() {
	local what=$1
	shift
	local start=$SECONDS

	note "$what"
	if "$@"; then
		note "$what: ok ($((SECONDS - start))s)"
	else
		note "$what: FAILED (rc $?)"
		FAILED+=("$what")
	fi
}

run_tests() {
	local name=$1 src=$2 bin

	bin=$(build "$src" plain test) || { FAILED+=("$name: build"); return; }
	check "$name: gtest ($(basename "$src"))" \
		timeout "${PFL_TIMEOUT:-120}" env PFL_STRESS_OPS="${PFL_STRESS_OPS:-10000000}" \
		"$bin" --gtest_brief=1
	bin=$(build "$src" tsan test) || { FAILED+=("$name: tsan build"); return; }
	check "$name: gtest under TSan ($(basename "$src"))" \
		timeout "${PFL_TIMEOUT:-120}" env PFL_STRESS_OPS="${PFL_TSAN_STRESS_OPS:-10000000}" \
		TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1" \
		"$bin" --gtest_brief=1
}

bench_one() {
	local src=$1 out=$2 bin

	bin=$(build "$src" plain bench) || return 1
	"$bin" --benchmark_min_time="${PFL_BENCH_MIN_TIME:-0.1}" \
		--benchmark_repetitions="${PFL_BENCH_REPS:-3}" \
		--benchmark_out="$out" --benchmark_out_format=json \
		>"$out.txt" 2>&1 || { cat "$out.txt"; return 1; }
}

run_bench() {
	local base=$1 series=$2 out=$OBJ/bench

	mkdir -p "$out"
	bench_one "$base" "$out/base.json" || { FAILED+=("bench base"); return; }
	bench_one "$series" "$out/series.json" || { FAILED+=("bench series"); return; }
	note "bench: base $(basename "$base") vs series $(basename "$series")" \
		"(ns per op, cpu time, median of ${PFL_BENCH_REPS:-3}; raw: $out)"
	python3 "$HERE/bench_table.py" "$out/base.json" "$out/series.json" ||
		FAILED+=("bench table")
}

# VERSION (base, series, or a variant) -> its stored directory
version_dir() {
	case $1 in
	base) echo "$base" ;;
	series) echo "$series" ;;
	*) variant "$1" ;;
	esac
}

run_mt() {
	local name src bin args=() threads=() mt=mt tally=

	if [ "${PFL_MT_TALLY:-0}" = 1 ]; then
		mt=mtt tally=1
	fi

	if [ "${1:-}" = --threads ]; then
		threads=(--threads "$2")
		shift 2
	fi
	(($#)) || set -- base series
	for name in "$@"; do
		src=$(version_dir "$name") || exit 2
		bin=$(build "$src" plain "$mt") || { FAILED+=("mt: build $name"); return; }
		args+=("$name=$bin")
	done
	mkdir -p "$OBJ/mt"
	local rc=0 vars=() v
	python3 "$HERE/mt_run.py" --reps "${PFL_MT_REPS:-10}" --ms "${PFL_MT_MS:-200}" "${threads[@]}" \
		${PFL_MT_CASES:+--cases "$PFL_MT_CASES"} ${tally:+--tally} \
		${PFL_MT_GATE:+--gate} --json "$OBJ/mt/results.json" "${args[@]}" |
		tee "$OBJ/mt/mt.log" || rc=$?
	((rc == 0)) || FAILED+=("mt")
	# the race cases, a row per case and version, with the columns that explain them
	if [[ " ${PFL_MT_CASES:-} " == *" race:"* ]]; then
		python3 "$HERE/race_table.py" "$OBJ/mt/results.json" | tee -a "$OBJ/mt/mt.log" ||
			FAILED+=("mt: race table")
	fi
	[[ ${RECORD:-0} == 1 ]] || return 0
	# RECORD=1: the run as a record, records/<base>/mt/<date>-NAME/ (PFL_MT_NAME, default mt),
	# through the lab's one record helper (scripts/lab-record.sh)
	BASE=${BASE:-$(lab BASE)} || return 1
	for v in "$@"; do
		vars+=(--variant "$v=$(basename "$(version_dir "$v")")")
	done
	"$LAB_ROOT/scripts/lab-record.sh" -- --kind mt --base "$BASE" --name "${PFL_MT_NAME:-mt}" \
		--clock native --status "$rc" "${vars[@]}" \
		--what "the native harness (tools/testing/pcpu_freelist), ${PFL_MT_CASES:-the default cases}: $*, ${PFL_MT_REPS:-10} interleaved repetitions of ${PFL_MT_MS:-200} ms${tally:+, tally build}${PFL_MT_GATE:+, race cases gated}" \
		--command "$(mt_command "$@")" "$OBJ/mt/results.json" "$OBJ/mt/mt.log" ||
		FAILED+=("mt: record")
}

# The command that reproduces this run: the knobs that were set, then run.sh mt.
mt_command() {
	local k out=()
	for k in BASE FREELIST_REV FREELIST_SRC_DIR PFL_MT_REPS PFL_MT_MS PFL_MT_CASES PFL_MT_TALLY PFL_MT_GATE; do
		[[ -z ${!k:-} ]] || out+=("$k=$(printf %q "${!k}")")
	done
	echo "env ${out[*]} tools/testing/pcpu_freelist/run.sh mt $*"
}

run_count() {
	local name src bin args=() vars=() rc=0 dir=$OBJ/count

	(($#)) || set -- base series
	for name in "$@"; do
		src=$(version_dir "$name") || exit 2
		bin=$(build "$src" plain count) || { FAILED+=("count: build $name"); return; }
		args+=("$name=$bin")
		vars+=(--variant "$name=$(basename "$src")")
	done
	mkdir -p "$dir"
	python3 "$HERE/count_run.py" ${PFL_COUNT_CASES:+--cases "$PFL_COUNT_CASES"} \
		${PFL_COUNT_GATE:+--gate "$PFL_COUNT_GATE"} --json "$dir/results.json" "${args[@]}" |
		tee "$dir/count.md" || rc=$?
	((rc == 0)) || FAILED+=("count")
	[[ ${RECORD:-0} == 1 ]] || return 0
	BASE=${BASE:-$(lab BASE)} || return 1
	"$LAB_ROOT/scripts/lab-record.sh" -- --kind mt --base "$BASE" --name "${PFL_MT_NAME:-count}" \
		--clock callgrind --status "$rc" "${vars[@]}" \
		--what "instructions per operation of pcpu_freelist_push() and pcpu_freelist_pop() (inclusive), the harness's gcc -O2 build of each version (tools/testing/pcpu_freelist count): valgrind --tool=callgrind, the difference of 1000- and 3000-operation runs; ${PFL_COUNT_CASES:-the default cases}: $*" \
		--command "env${PFL_COUNT_CASES:+ PFL_COUNT_CASES=$(printf %q "$PFL_COUNT_CASES")}${PFL_COUNT_GATE:+ PFL_COUNT_GATE=$PFL_COUNT_GATE} tools/testing/pcpu_freelist/run.sh count $*" \
		"$dir/results.json" "$dir/count.md" || FAILED+=("count: record")
}

# kobj VERSION...: each version's file compiled in the lab's build worktree (its lock held), into
# the bench kernel's object directory, the object copied out, the worktree's files put back.
run_kobj() {
	local name src bsrc kobj dir=$OBJ/kobj

	bsrc=$(lab BUILD_SRC) && kobj=$(lab BASE_CACHE)/obj/bench || return 1
	[[ -f $kobj/.config && -f $kobj/kernel/bpf/percpu_freelist.o ]] ||
		die "kobj: no bench kernel built in $kobj (make kernel REV=lab-base first)"
	mkdir -p "$dir"
	for name in "$@"; do
		src=$(version_dir "$name") || exit 2
		if ! (
			exec 9>"$bsrc.lock" && flock 9 &&
				trap 'git -C "$bsrc" checkout -q -- kernel/bpf/percpu_freelist.c kernel/bpf/percpu_freelist.h' EXIT &&
				cp "$src"/percpu_freelist.[ch] "$bsrc/kernel/bpf/" &&
				env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS -u LLVM make -s -C "$bsrc" O="$kobj" \
					ARCH=x86_64 kernel/bpf/percpu_freelist.o &&
				cp "$kobj/kernel/bpf/percpu_freelist.o" "$dir/$name.o"
		); then
			FAILED+=("kobj: $name")
			continue
		fi
		echo "$name=$dir/$name.o"
	done
}

run_sim() {
	local name src bin args=()

	(($#)) || set -- base series
	for name in "$@"; do
		src=$(version_dir "$name") || exit 2
		bin=$(build "$src" plain sim) || { FAILED+=("sim: build $name"); return; }
		args+=("$name=$bin")
	done
	[ -f "${PFL_COSTS:-}" ] || die "sim: PFL_COSTS=FILE, a file with the line of run.sh calibrate"
	mkdir -p "$OBJ/sim"
	python3 "$HERE/mt_model.py" simulate --costs "$PFL_COSTS" ${PFL_NATIVE:+--native "$PFL_NATIVE"} \
		${PFL_SIM_CPUS:+--cpus "$PFL_SIM_CPUS"} ${PFL_SIM_ROBBABLE:+--robbable} \
		--json "$OBJ/sim/results.json" "${args[@]}" ||
		FAILED+=("sim")
}

# plant NAME: the series (or the variant freelist-vN, for freelist-vN-...) of this base with
# lab/plants/NAME.patch on top, in a scratch copy; its GoogleTest tests must fail. Prints the first failing assertion.
run_plant() {
	local name=$1 patch=$LAB_ROOT/lab/plants/$1.patch parent v src bin log

	[ -f "$patch" ] || die "no plant $patch"
	# a plant applies to the variant its name starts with (freelist-v3-..., freelist-v4-...),
	# or to the series (freelist-...)
	if [[ $name =~ ^(freelist-v[0-9]+)- ]]; then
		parent=${BASH_REMATCH[1]}
		v=$(variant "$parent") || exit 2
	elif [[ $name == freelist-* ]]; then
		parent=series v=$series
	else
		die "plant $name: not a freelist plant (freelist-NAME, or freelist-vN-NAME for variant freelist-vN)"
	fi
	src=$(patched_store "$v" "$patch" "$parent of $VERSION") || exit 2
	bin=$(build "$src" plain test) || { FAILED+=("plant $name: build"); return; }
	log=$OBJ/plant-$name.log
	if timeout "${PFL_TIMEOUT:-120}" env PFL_STRESS_OPS=200000 "$bin" --gtest_brief=1 >"$log" 2>&1; then
		note "plant $name: NOT caught (every test passed; $log)"
		FAILED+=("plant $name")
		return
	fi
	note "plant $name: caught: $(grep -m1 '^\[  FAILED  \]' "$log" | sed 's/^\[  FAILED  \] //')"
	grep -m1 -A7 ': Failure$' "$log" | sed 's/^/    /' >&2
}

usage="usage: run.sh [test|bench|all|calibrate|mt [--threads N] [VERSION...]|count [VERSION...]|kobj VERSION...|src VERSION|sim [VERSION...]|plant NAME...]"
cmd=${1:-test}
case $cmd in
test | bench | all | calibrate) (($# <= 1)) || die "$usage" ;;
mt | count | sim | plant) shift ;;
src) (($# == 2)) || die "$usage"; shift ;;
kobj) (($# >= 2)) || die "$usage"; shift ;;
*) die "$usage" ;;
esac

start=$SECONDS
if [ -n "$KSRC" ]; then
	[ -f "$KSRC/kernel/bpf/percpu_freelist.c" ] || die "FREELIST_KSRC=$KSRC: no kernel/bpf/percpu_freelist.c"
	tmp=$(mktemp -d) || die mktemp
	(cd "$KSRC/kernel/bpf" && cp "${FILES[@]}" "$tmp"/) || die "cannot copy ${FILES[*]} from $KSRC"
	base=$(store "$tmp") || exit 2
	rm -rf "$tmp"
	series=${FREELIST_SRC_DIR:+$(store "$FREELIST_SRC_DIR")}
	series=${series:-$base}
	sname="series = ${FREELIST_SRC_DIR:-base}"
	BASE_REV="$KSRC"
else
	git -C "$TREE" rev-parse -q --verify "$BASE_REV^{commit}" >/dev/null ||
		die "$TREE has no rev $BASE_REV (set FREELIST_TREE, or FREELIST_KSRC)"
	base=$(extract "$BASE_REV") || exit 2
	if [ -n "${FREELIST_SRC_DIR:-}" ]; then
		series=$(store "$FREELIST_SRC_DIR") || exit 2
		sname="src-dir $FREELIST_SRC_DIR"
	else
		series=$(extract "$SERIES_REV") || exit 2
		sname="series $SERIES_REV"
	fi
fi
TOOLS=$(tools_include) || exit 2
VERSION=$(kversion)
note "base $BASE_REV = $(basename "$base"), $sname = $(basename "$series"), tools/include of $VERSION"

case $cmd in
mt) run_mt "$@" ;;
count) run_count "$@" ;;
src)
	version_dir "$1" || exit 2
	exit 0
	;;
kobj) run_kobj "$@" ;;
sim) run_sim "$@" ;;
plant)
	(($#)) || die "plant: which? $(names "$LAB_ROOT/lab/plants" 'freelist-v[0-9]*.patch')"
	for p in "$@"; do
		run_plant "$p"
	done
	;;
calibrate)
	bin=$(build "$base" plain mt) || die "build failed"
	"$bin" calibrate
	;;
bench) run_bench "$base" "$series" ;;
*)
	if [ -n "${FREELIST_SRC_DIR:-}" ] || [ "$series" = "$base" ]; then
		run_tests "$([ "$series" = "$base" ] && echo base || echo src-dir)" "$series"
	else
		run_tests base "$base"
		run_tests series "$series"
	fi
	[ "$cmd" = test ] || run_bench "$base" "$series"
	;;
esac

if [ ${#FAILED[@]} -ne 0 ]; then
	note "FAILED: ${FAILED[*]} ($((SECONDS - start))s)"
	exit 1
fi
note "all passed ($((SECONDS - start))s)"
