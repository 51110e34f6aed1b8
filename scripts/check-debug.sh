#!/bin/bash
# make check-debug: boot the debug kernel (bench.config + debug.config: KCSAN, lockdep,
# atomic-sleep checks) of REV (default HEAD), run short versions of the benchmarks the series
# changes and the selftests it touches, and fail on any KCSAN, lockdep, BUG or WARN splat.
# Slow (a second kernel build and test_progs), so it is not part of `make check`.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

S=$LAB_ROOT/scripts
start=$SECONDS
"$S/tree.sh"
rev=$(tree_commit "${REV:-HEAD}")
kernel=$("$S/kernel.sh" -c debug "$rev")
bench_dir=$("$S/bench-build.sh" "$rev")
tests_dir=$("$S/bench-build.sh" -c debug "$rev" test_progs test_maps)
# What a KCSAN report, a lockdep report, a BUG or a WARN starts with in dmesg.
splat='BUG:|WARNING:|possible recursive locking|possible circular locking|inconsistent lock state|sleeping function called from invalid context|INFO: task .* blocked'
# The changed benchmarks (short) and the touched selftests; the list lives in config/debug-run.
guest_cmd="splat='$splat'; cd $tests_dir && BENCH_DIR=$bench_dir bash $LAB_ROOT/config/debug-run; rc=\$?; dmesg > /tmp/dmesg; echo '--- dmesg splats ---'; grep -nE -A25 \"\$splat\" /tmp/dmesg; echo '--- end ---'; exit \$rc"
log=$BASE_CACHE/check-debug.log
set +e
"$S/vm.sh" -k "$kernel" -c 2 -m 4G -t "${TIMEOUT:-3000}" -- "$guest_cmd" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
splats=$(sed -n '/^--- dmesg splats ---$/,/^--- end ---$/p' "$log" | grep -cE "$splat" || true)
note "check-debug: exit status $rc, $splats splat line(s), $((SECONDS - start))s (log: $log)"
((rc == 0 && splats == 0)) || die "check-debug failed"
