#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Userspace harness for kernel/bpf/bpf_lru_list.c (like tools/testing/radix-tree):
# the unmodified kernel file compiled against the kernel's own tools/include,
# with shim/ for what that lacks, driven as kernel/bpf/hashtab.c drives it.
# Stands alone: it needs a kernel source, git and a compiler, not the lab.
# Run it under the machine's CPU lock: flock /tmp/cpu.lock run.sh ...
set -euo pipefail
shopt -s inherit_errexit	# set -e reaches into $(...) too

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/bpf-lab/7.3
TREE=${LRU_TREE:-$CACHE/linux}
REV=${LRU_REV:-lab-base}
OBJ=${LRU_OBJ:-$CACHE/obj/bpf_lru_list}
FILES=(bpf_lru_list.c bpf_lru_list.h)

usage() {
	cat <<EOF
usage: run.sh [--src DIR] [--version NAME=DIR]... [test|mt [CASE...]|count [CASE...]|scan [CASE...]|capacity|plant NAME...]

  test        GoogleTest tests (ASan, UBSan) of every version; a table of what passed and failed
  mt          the native multi-threaded timing, versions interleaved (mt_run.py time);
              a CASE is SCENARIO/POSSIBLE[/ENTRIES[/ONLINE]] (default: every scenario)
  count       how often a pop runs the steal walk, one thread playing the online CPUs
              (mt_run.py count; default: map sizes x online x possible CPUs)
  scan        the refill's scan (issue 59): the hotcold workload of every version (mt_run.py
              scan), a CASE hotcold/POSSIBLE/ENTRIES/ONLINE (default: 1k-64k entries x 2 and
              64 online x 2-256 possible): counts and hit rate from the tally build (the
              version with tally/counters.patch), instructions per op under callgrind, ns per
              pop of 2 online threads (LRU_MT_REPS interleaved repetitions of LRU_MT_MS ms);
              with LRU_SEEDS=N (> 1) the tally build runs every case under seeds 1-N too,
              and the versions are judged within the base's own spread as well (rule.md,
              seeds.md)
  capacity    keys CPU 0 leaves in a 65536-entry BPF_F_NO_COMMON_LRU map, 2 and 255 possible
  plant NAME  plants/NAME.patch on the base in a scratch copy: the tests must fail

  --src DIR           a kernel source tree (DIR/kernel/bpf/, DIR/tools/include) as the base
                      (default: the git tree \$LRU_TREE at \$LRU_REV)
  --version NAME=DIR  one more version: DIR holds bpf_lru_list.c and .h, or DIR is a patch
                      of kernel/bpf/bpf_lru_list.c (e.g. variants/*.patch) applied to the base

Environment: LRU_TREE (default $CACHE/linux), LRU_REV (lab-base),
  LRU_OBJ (build products, default $CACHE/obj/bpf_lru_list), LRU_MT_REPS (5), LRU_MT_MS (200),
  LRU_SEEDS (scan: 1),
  RECORD=1 (test, mt, count, scan, capacity, plant: also write a record with scripts/readout.py records, kind mt,
  plant for plant, name lru-<command>[-\$LRU_RECORD_NAME]).
EOF
}

die() {
	echo "run.sh: $*" >&2
	exit 1
}

# store DIR: copy bpf_lru_list.[ch] of DIR to $OBJ/src/<hash of them>; print that path
store() {
	local dir=$1 key f

	for f in "${FILES[@]}"; do
		[ -f "$dir/$f" ] || die "$dir has no $f"
	done
	key=$(cat "$dir/bpf_lru_list.c" "$dir/bpf_lru_list.h" | sha256sum | cut -c1-12)
	if [ ! -d "$OBJ/src/$key" ]; then
		mkdir -p "$OBJ/src/$key.tmp.$$"
		cp "$dir/bpf_lru_list.c" "$dir/bpf_lru_list.h" "$OBJ/src/$key.tmp.$$/"
		mv "$OBJ/src/$key.tmp.$$" "$OBJ/src/$key"
	fi
	echo "$OBJ/src/$key"
}

TMP=
cleanup() {
	[ -z "$TMP" ] || rm -rf "$TMP"
}
trap cleanup EXIT

# base_from_git: the files and tools/include of $REV in $TREE; sets BASE_DIR and TOOLS
base_from_git() {
	local key f

	git -C "$TREE" rev-parse -q --verify "$REV^{commit}" >/dev/null 2>&1 ||
		die "no rev $REV in git tree $TREE (set LRU_TREE and LRU_REV, or use --src DIR)"
	TMP=$(mktemp -d)
	for f in "${FILES[@]}"; do
		git -C "$TREE" show "$REV:kernel/bpf/$f" >"$TMP/$f" ||
			die "no kernel/bpf/$f at $REV in $TREE"
	done
	BASE_DIR=$(store "$TMP")
	key=$(git -C "$TREE" rev-parse "$REV:tools/include")
	if [ ! -d "$OBJ/tools/$key" ]; then
		mkdir -p "$OBJ/tools/$key.tmp.$$"
		git -C "$TREE" archive "$REV" tools/include | tar -x -C "$OBJ/tools/$key.tmp.$$" ||
			die "cannot extract tools/include of $REV"
		mv "$OBJ/tools/$key.tmp.$$" "$OBJ/tools/$key"
	fi
	TOOLS=$OBJ/tools/$key/tools/include
}

# build SRC_DIR WHAT (test|mt): print the binary
build() {
	local o

	o=$OBJ/build/$(basename "$1")-$(echo "$HERE $TOOLS" | sha1sum | cut -c1-8)
	make -s -C "$HERE" SRC="$1" O="$o" TOOLS_INCLUDE="$TOOLS" "$2" >&2 ||
		die "build of $2 from $1 failed"
	if [ "$2" = test ]; then
		echo "$o/bpf_lru_test"
	else
		echo "$o/bpf_lru_mt"
	fi
}

# record COMMAND WHAT [KIND STATUS FILE...]: a record (scripts/readout.py records) when RECORD=1;
# by default kind mt, status 0, $OUT/results.json and $OUT/table.md
record() {
	local name vars=() v kind=${3:-mt} status=${4:-0} files=("${@:5}") clock=native

	[ "${RECORD:-0}" = 1 ] || return 0
	((${#files[@]})) || files=("$OUT/results.json" "$OUT/table.md")
	if [ "$kind" = plant ] || [ "$1" = test ]; then
		clock=none	# a test's verdict, not a time
	fi
	name=lru-$1${LRU_RECORD_NAME:+-$LRU_RECORD_NAME}
	for v in "${VERSIONS[@]}"; do
		vars+=(--variant "${v%%=*}=$(basename "${v#*=}")")
	done
	"$HERE/../../../scripts/readout.py" records write --kind "$kind" --base 7.3 --name "$name" \
		--clock "$clock" --status "$status" "${vars[@]}" --param "source=$SOURCE" \
		--what "$2" --command "$COMMAND" "${files[@]}" >&2
}

SRC_ARG=
VERSIONS=()
COMMAND="tools/testing/bpf_lru_list/run.sh $*"
for k in LRU_MT_REPS LRU_MT_MS LRU_SEEDS LRU_REV LRU_TREE; do
	[ -z "${!k:-}" ] || COMMAND="$k=${!k} $COMMAND"
done
COMMAND="flock /tmp/cpu.lock env RECORD=1 $COMMAND"
while (($#)); do
	case $1 in
	--help | -h)
		usage
		exit 0
		;;
	--src)
		(($# >= 2)) || die "--src needs a directory"
		SRC_ARG=$2
		shift 2
		;;
	--version)
		(($# >= 2)) || die "--version needs NAME=DIR"
		[[ $2 =~ ^[a-z0-9][a-z0-9_-]*=.+ ]] || die "--version $2: expected NAME=DIR"
		[ "${2%%=*}" != base ] || die "--version: base is the source's own file"
		VERSIONS+=("$2")
		shift 2
		;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
cmd=${1:-test}
(($# == 0)) || shift
case $cmd in
test | capacity) (($# == 0)) || die "$cmd takes no arguments" ;;
mt | count | scan | plant) ;;
*) die "unknown command $cmd (see --help)" ;;
esac

if [ -n "$SRC_ARG" ]; then
	[ -f "$SRC_ARG/kernel/bpf/bpf_lru_list.c" ] || die "--src $SRC_ARG: no kernel/bpf/bpf_lru_list.c"
	[ -d "$SRC_ARG/tools/include" ] || die "--src $SRC_ARG: no tools/include"
	BASE_DIR=$(store "$SRC_ARG/kernel/bpf")
	TOOLS=$(cd "$SRC_ARG/tools/include" && pwd)
	SOURCE=$SRC_ARG
else
	base_from_git
	SOURCE="$TREE at $REV ($(git -C "$TREE" rev-parse "$REV"))"
fi
ALL=("base=$BASE_DIR")
# patched PATCH [DIR]: DIR (default the base) with PATCH applied, in a scratch copy
patched() {
	local tmp dir

	tmp=$(mktemp -d)
	cp "${2:-$BASE_DIR}"/* "$tmp"/
	if ! patch -s -p3 -d "$tmp" <"$1"; then
		rm -rf "$tmp"
		die "$1 does not apply to ${2:-the base}"
	fi
	dir=$(store "$tmp")
	rm -rf "$tmp"
	echo "$dir"
}
for v in "${VERSIONS[@]}"; do
	if [ -f "${v#*=}" ]; then
		ALL+=("${v%%=*}=$(patched "${v#*=}")")
	else
		ALL+=("${v%%=*}=$(store "${v#*=}")")
	fi
done
VERSIONS=("${ALL[@]}")
echo "run.sh: base $(basename "$BASE_DIR") from $SOURCE" >&2

case $cmd in
test)
	rc=0
	OUT=$OBJ/out/test
	rm -rf "$OUT"
	mkdir -p "$OUT"
	reports=()
	for v in "${VERSIONS[@]}"; do
		bin=$(build "${v#*=}" test)
		echo "run.sh: ${v%%=*}: $bin" >&2
		echo "== ${v%%=*}" >>"$OUT/test.log"
		timeout 300 "$bin" --gtest_brief=1 --gtest_output="json:$OUT/${v%%=*}.json" 2>&1 |
			tee -a "$OUT/test.log" || rc=1
		[ -f "$OUT/${v%%=*}.json" ] || die "${v%%=*}: the tests wrote no report (crashed?)"
		reports+=("${v%%=*}=$OUT/${v%%=*}.json")
	done
	python3 "$HERE/mt_run.py" tests --json "$OUT/summary.json" "${reports[@]}" | tee "$OUT/table.md"
	record test "the GoogleTest tests of tools/testing/bpf_lru_list (ASan, UBSan) on each version of kernel/bpf/bpf_lru_list.c: which pass, which fail" \
		mt "$rc" "$OUT/summary.json" "$OUT/table.md" "$OUT/test.log"
	exit $rc
	;;
plant)
	if (($# == 0)); then
		names=("$HERE"/plants/*.patch)
		names=("${names[@]##*/}")
		die "plant: which? ${names[*]%.patch}"
	fi
	rc=0
	OUT=$OBJ/out/plant
	rm -rf "$OUT"
	mkdir -p "$OUT"
	for p in "$@"; do
		[ -f "$HERE/plants/$p.patch" ] || die "no plant $HERE/plants/$p.patch"
		bin=$(build "$(patched "$HERE/plants/$p.patch")" test)
		echo "== plant $p: $(grep -m1 '^+.*plant' "$HERE/plants/$p.patch" | sed 's/^+[[:space:]]*//')" |
			tee -a "$OUT/plant.log"
		if timeout 300 "$bin" --gtest_brief=1 2>&1 | tee -a "$OUT/plant.log"; then
			echo "run.sh: plant $p: NOT caught, every test passed" | tee -a "$OUT/plant.log" >&2
			rc=1
		else
			echo "run.sh: plant $p: caught" | tee -a "$OUT/plant.log" >&2
		fi
	done
	record plant "each plant of tools/testing/bpf_lru_list/plants ($*) put back on 7.3.4's kernel/bpf/bpf_lru_list.c in a scratch copy: its GoogleTest test fails" \
		plant "$rc" "$OUT/plant.log"
	exit $rc
	;;
esac

BINS=()
TALLY=()	# scan: the tally builds, options before the versions
for v in "${VERSIONS[@]}"; do
	BINS+=("${v%%=*}=$(build "${v#*=}" mt)")
	if [ "$cmd" = scan ]; then
		TALLY+=(--tally "${v%%=*}=$(build "$(patched "$HERE/tally/counters.patch" "${v#*=}")" mt)")
	fi
done
OUT=$OBJ/out/$cmd
rm -rf "$OUT"
mkdir -p "$OUT"
case $cmd in
mt)
	python3 "$HERE/mt_run.py" time --reps "${LRU_MT_REPS:-5}" --ms "${LRU_MT_MS:-200}" \
		${1:+--cases "$*"} --json "$OUT/results.json" "${BINS[@]}" | tee "$OUT/table.md"
	record mt "the native harness of kernel/bpf/bpf_lru_list.c (tools/testing/bpf_lru_list): ns, locks, steal walks and steals per pop; ${*:-every default case}; ${LRU_MT_REPS:-5} interleaved repetitions of ${LRU_MT_MS:-200} ms"
	;;
count)
	python3 "$HERE/mt_run.py" count ${1:+--cases "$*"} --json "$OUT/results.json" "${BINS[@]}" |
		tee "$OUT/table.md"
	record count "how often a pop of kernel/bpf/bpf_lru_list.c runs the steal walk under realistic churn (tools/testing/bpf_lru_list mix --sim: one thread plays the online CPUs); ${*:-by map size, online and possible CPUs}"
	;;
scan)
	command -v valgrind >/dev/null || die "scan needs valgrind (callgrind)"
	seeds=${LRU_SEEDS:-1}
	[[ $seeds =~ ^[1-9][0-9]*$ ]] || die "LRU_SEEDS=$seeds: a positive number"
	files=("$OUT/results.json" "$OUT/table.md" "$OUT/rule.md")
	spread=""
	seeds_md=()
	if ((seeds > 1)); then
		files+=("$OUT/seeds.md")
		seeds_md=(--seeds-md "$OUT/seeds.md")
		spread="; the tally build's --sim runs under seeds 1-$seeds too, and the rule within the base's own spread over them"
	fi
	python3 "$HERE/mt_run.py" scan --reps "${LRU_MT_REPS:-5}" --ms "${LRU_MT_MS:-200}" \
		${1:+--cases "$*"} --seeds "$seeds" --rule-md "$OUT/rule.md" \
		"${seeds_md[@]}" \
		--json "$OUT/results.json" "${TALLY[@]}" "${BINS[@]}" | tee "$OUT/table.md"
	record scan "the refill's scan of kernel/bpf/bpf_lru_list.c (issue 59), hotcold workload: ${*:-1k-64k entries, 2 and 64 online, 2-256 possible CPUs}; counts, hit rate, live share and referenced evictions from the tally build (--sim), instructions per op (callgrind, difference of two run lengths), ns per pop of 2 online threads (${LRU_MT_REPS:-5} interleaved repetitions of ${LRU_MT_MS:-200} ms)$spread" \
		mt 0 "${files[@]}"
	;;
capacity)
	python3 "$HERE/mt_run.py" capacity --possible "2 255" --json "$OUT/results.json" "${BINS[@]}" |
		tee "$OUT/table.md"
	record capacity "keys inserted from CPU 0 left in a 65536-entry BPF_F_NO_COMMON_LRU map (and a common LRU map) at 2 and 255 possible CPUs (tools/testing/bpf_lru_list capacity)"
	;;
esac
