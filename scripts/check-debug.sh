#!/bin/bash
# make check-debug: boot the debug kernel (bench.config + debug.config: KCSAN, lockdep,
# atomic-sleep checks) of REV (default HEAD), run short versions of the benchmarks the series
# changes and the selftests it touches, and fail on any KCSAN, lockdep, BUG or WARN splat that
# config/<base>/known-splats does not name as the base's.
# Slow (a second kernel build and test_progs), so it is not part of `make check`. Its console log
# lands in $LAB_CACHE/<base>/results/check-debug/<date>/ (scripts/lib/results.sh, with a `latest`
# link); the last line names it. RECORD=1 also
# writes the run as a record, records/<base>/check-debug/ (scripts/records.py: its log).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs
(($# == 0)) || die "$1: no arguments taken (usage: [REV=commit-ish] scripts/check-debug.sh)"

S=$LAB_ROOT/scripts
start=$SECONDS
"$S/tree.sh"
rev=$(tree_commit "${REV:-HEAD}")
kernel=$("$S/kernel.sh" -c debug "$rev")
bench_dir=$("$S/bench-build.sh" "$rev")
tests_dir=$("$S/bench-build.sh" -c debug "$rev" test_progs test_maps)
nmi_stackmap=$(nmi_stackmap_build "$tests_dir")
splat=$SPLAT_RE
# The changed benchmarks (short) and the touched selftests; the list lives in config/debug-run. A
# shell program for the guest: its paths and the pattern quoted by guest_command.
guest_cmd="splat=$(guest_command "$splat"); cd $(guest_command "$tests_dir") &&
	BENCH_DIR=$(guest_command "$bench_dir") NMI_STACKMAP=$(guest_command "$nmi_stackmap") bash $(guest_command "$LAB_ROOT/config/debug-run"); rc=\$?;
	dmesg > /tmp/dmesg; echo '--- dmesg splats ---'; grep -nE -A25 \"\$splat\" /tmp/dmesg; echo '--- end ---'; exit \$rc"
out=$(results_dir check-debug)
log=$out/console.log
set +e
"$S/vm.sh" -k "$kernel" -c "$VM_CPUS" -m "${MEM:-$DEBUG_MEM}" -t "${TIMEOUT:-$DEBUG_TIMEOUT}" -- "$guest_cmd" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
# The splats' first lines, from the console and the guest's dmesg; those of the base that
# config/<base>/known-splats names, with its reason, are counted, not failed.
firsts=$(log_splats "$log")
unknown=$(unknown_splats "$BASE_CONFIG/known-splats" <<<"$firsts")
total=$(grep -c . <<<"$firsts" || true)
new=$(grep -c . <<<"$unknown" || true)
[[ -z $unknown ]] || sed 's/^/unknown splat: /' <<<"$unknown" >&2
note "check-debug: exit status $rc, $total splat(s): $((total - new)) known (config/$BASE/known-splats), $new unknown, $((SECONDS - start))s (log: $log)"
if [[ ${RECORD:-0} == 1 ]]; then
	record=$("$S/records.py" write --kind check-debug --name check-debug --clock none --status "$rc" \
		--what "make check-debug on $BASE: the KCSAN and lockdep kernel of ${rev:0:12} runs config/debug-run" \
		--command "make check-debug BASE=$BASE REV=${REV:-HEAD}" --variant "kernel=${rev:0:12}" "console.log=$log")
	note "recorded in $record (git add it)"
fi
((rc == 0 && new == 0)) || die "check-debug failed; its log: $log"
results_done "$out"
