#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The common LRU's steal walk in the real kernel: lru_kbench (built here, on
# the host) in the lab's VM, on the bench kernel of the lab variant
# lru-steal-counter (its counters: /sys/kernel/debug/bpf_lru_steal). Unlike
# run.sh it needs the lab (scripts/lib.sh, kernel.sh, vm.sh) and its 7.3 tree.
#   flock /tmp/cpu.lock tools/testing/bpf_lru_list/kbench.sh [CASE...]
# A CASE is CLOCK/POSSIBLE/SCENARIO/ENTRIES/OPS: CLOCK icount (one online
# CPU, -icount) or wall (2 online CPUs), SCENARIO one of lru_kbench's.
# RECORD=1 also writes the results as a record (kind mt, name lru-kbench).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LAB=$(cd "$HERE/../../.." && pwd)
BASE=7.3
# shellcheck source=../../../scripts/lib.sh
. "$LAB/scripts/lib.sh"
check_knobs

COMMAND="flock /tmp/cpu.lock env RECORD=1 tools/testing/bpf_lru_list/kbench.sh $*"
VARIANT=lru-steal-counter
SECONDS_MAX=30
# 1 entry, small enough that the steal runs, then the realistic sizes (at 2 online: 2, 8 = 4x, 255)
DEFAULT_CASES=(
	wall/2/churn-insert/1/20000 wall/64/churn-insert/1/20000 wall/255/churn-insert/1/20000
	icount/2/churn-insert/1/2000 icount/64/churn-insert/1/2000
)
for e in 1024 65536 1048576; do
	for p in 2 8 255; do
		DEFAULT_CASES+=("wall/$p/churn-insert/$e/$((e > 65536 ? 2 * e : 200000))")
	done
done
# last: 255 possible CPUs take minutes to boot under -icount
DEFAULT_CASES+=(icount/255/churn-insert/1/2000)
((${#@})) || set -- "${DEFAULT_CASES[@]}"
for c in "$@"; do
	[[ $c =~ ^(icount|wall)/[1-9][0-9]*/(churn-insert|insert)/[1-9][0-9]*/[1-9][0-9]*$ ]] ||
		die "bad case '$c' (CLOCK/POSSIBLE/SCENARIO/ENTRIES/OPS, CLOCK icount or wall)"
done

# lru_kbench, with libbpf from the base's own tools/
OBJ=$BASE_CACHE/obj/bpf_lru_list
key=$(git -C "$TREE" rev-parse "$BASE_TAG:tools")
tools=$OBJ/ktools/$key
if [[ ! -d $tools ]]; then
	mkdir -p "$tools.tmp.$$"
	git -C "$TREE" archive "$BASE_TAG" tools/lib/bpf tools/include tools/scripts tools/build \
		tools/arch/x86/include scripts/bpf_doc.py | tar -x -C "$tools.tmp.$$" || die "cannot extract tools/ of $BASE_TAG"
	mv "$tools.tmp.$$" "$tools"
fi
o=$OBJ/kbench-$key
make -s -C "$HERE" SRC=- TOOLS_INCLUDE=- TOOLS_DIR="$tools/tools" O="$o" kbench >&2 || die "build of lru_kbench failed"
bin=$o/lru_kbench

commit=$(variant_commit "$VARIANT")
kernel=$("$LAB/scripts/kernel.sh" "$commit")

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
clocks=() failed=()
for c in "$@"; do
	IFS=/ read -r clock possible scenario entries ops <<<"$c"
	opts=(-p "$possible" -t $((SECONDS_MAX + 120)))
	if [[ $clock == icount ]]; then
		opts=(-p "$possible" -t 1200 -i)
	else
		opts+=(-c 2)
	fi
	note "$c"
	guest="$bin -s $SECONDS_MAX $scenario $entries $ops"	# vm-init.sh mounts debugfs
	if ! "$LAB/scripts/vm.sh" -k "$kernel" "${opts[@]}" -- "$guest" >"$OUT/run.out" 2>"$OUT/run.err" ||
		! line=$(grep '^{' "$OUT/run.out" | tail -n1); then
		note "$c: failed ($(tail -n1 "$OUT/run.err"))"
		failed+=("$c")
		continue
	fi
	if [[ $clock == icount ]]; then
		clocks+=(icount)
	else
		clocks+=("$(vm_clock "$OUT/run.err")")
	fi
	echo "${line%\}}, \"clock\": \"${clocks[-1]}\"}" >>"$OUT/results.jsonl"
	echo "$line"
done
python3 "$HERE/mt_run.py" ktable --json "$OUT/results.json" "$OUT/results.jsonl" >"$OUT/table.md"
((${#failed[@]} == 0)) || printf '\nFailed: %s\n' "${failed[*]}" >>"$OUT/table.md"
cat "$OUT/table.md"
if [[ ${RECORD:-0} == 1 ]]; then
	"$LAB/scripts/readout.py" records write --kind mt --base "$BASE" --name lru-kbench \
		--clock "$(printf '%s\n' "${clocks[@]}" | sort -u | paste -sd,)" --status $((${#failed[@]} > 0)) \
		--variant "$VARIANT=$commit" --param "kernel=$kernel" \
		--what "lru_kbench in the VM on lab variant $VARIANT: common-LRU pops, steal walks and lists visited per walk" \
		--command "$COMMAND" "$OUT/results.json" "$OUT/table.md" >&2
fi
((${#failed[@]} == 0)) || die "failed: ${failed[*]}"
