#!/bin/bash
# Every trigger producer must make the same syscall. getpgid() used to get whatever %rsi held, which
# with per-thread counting became the slot index: producer 1 asked for the group of pid 1, a slower
# path, and p2 stopped scaling. Each base's list gives the benchmarks to run: one producer that
# counts in userspace (trig-base) and one that only triggers BPF (trig-rawtp), where the base has them.
#   tests/series/trigger_producers_make_equal_syscalls.sh BENCHMARK...
# Plant: a producer calling syscall(__NR_getpgid) with no argument again (the series' getpgid(0)
# patch reverted in benchs/bench_trigger.c).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

trigger_producers_make_equal_syscalls() {
	local bench_dir b trace
	(($#)) || die "usage: $0 BENCHMARK... (benchmarks whose producers call getpgid() in a loop)"
	bench_dir=$(bench_dir)
	for b in "$@"; do
		trace=$scratch/$b.strace
		timeout 60 strace -f -qq -e trace=getpgid -e signal=none -o "$trace" \
			"$bench_dir/bench" -w1 -d1 -p2 "$b" >/dev/null
		echo "$b:"
		awk '$2 ~ /^getpgid\(/ {
			arg = substr($2, 9); sub(/[) ].*/, "", arg)
			calls[$1]++
			if (arg != "0") { other[$1]++; seen[$1] = arg }
		}
		END {
			for (t in calls) {
				threads++
				printf "  thread %s: %d getpgid calls, %d not getpgid(0)%s\n", t, calls[t],
				       other[t], other[t] ? " (e.g. getpgid(" seen[t] "))" : ""
				if (calls[t] < 1000 || other[t]) bad = 1
			}
			exit bad || threads != 2
		}' "$trace"
	done
}

run_test trigger_producers_make_equal_syscalls "$@"
