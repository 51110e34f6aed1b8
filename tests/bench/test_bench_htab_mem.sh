#!/bin/bash
# Tests of the selftests `bench htab-mem` (6.1's patch 0011): its option errors, the outcomes and the
# memory it reports in each use case, and that nothing it changes in the cgroup hierarchy or the
# mounts outlives it, however it ends (normal exit, SIGTERM, SIGKILL to it or to its process group, SIGPIPE from `| head -1`,
# no cgroup2 mount to start with, a reaper killed before the benchmark ends).
#   BENCH=path/to/bench tests/bench/test_bench_htab_mem.sh [TEST...]
#     (TEST: options, outcomes, sigterm, kill9, killgroup, head, nomount, noreaper; default: all)
# All but `options` need root and a cgroup2 hierarchy with the memory controller (the lab VM;
# skipped without them): run them under `unshare -m`; `nomount` unmounts cgroup2 only in a mount
# namespace of its own.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

bench=$BENCH
cg=/sys/fs/cgroup
scratch=$(mktemp -d "${TMPDIR:-/tmp}/htab-mem-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# What the benchmark could leave behind: this namespace's mounts, the cgroup directories, and the
# cgroup files it may write (subtree_control of every cgroup, the root's limits).
snapshot() {
	cut -d' ' -f2- /proc/self/mountinfo | sort
	if mountpoint -q "$cg"; then
		find "$cg" -type d | sort
		find "$cg" -name cgroup.subtree_control | sort | while read -r f; do
			echo "$f: $(cat "$f")"
		done
		for f in cgroup.max.depth cgroup.max.descendants; do
			echo "$cg/$f: $(cat "$cg/$f")"
		done
	fi
}

# nothing_left NAME BEFORE: the state must come back to BEFORE; the reaper of a killed benchmark
# may need a moment (its last thread has to exit before its cgroup can be removed).
nothing_left() {
	local name=$1 before=$2 _
	for _ in $(seq 50); do
		[[ $(snapshot) == "$before" ]] && break
		sleep 0.2
	done
	if [[ $(snapshot) == "$before" ]]; then
		ktap_test_pass "$name: nothing left behind"
	else
		ktap_test_fail "$name: left behind:"
		diff <(echo "$before") <(snapshot) | sed 's/^/#   /' || true
	fi
}

test_options() {
	bench_rejects "valid ones are overwrite, batch_add_batch_del, add_del_on_diff_cpu" htab-mem --use-case bogus
	bench_rejects "invalid --use-case ''" htab-mem --use-case ""
	bench_rejects "invalid --value-size '0'" htab-mem --value-size 0
	bench_rejects "invalid --value-size '4097'" htab-mem --value-size 4097
	bench_rejects "invalid --value-size '8k'" htab-mem --value-size 8k
	bench_rejects "invalid --max-entries '0'" htab-mem --max-entries 0
	bench_rejects "invalid --max-entries '-1'" htab-mem --max-entries -1
	bench_rejects "invalid --pairing 'spin'" htab-mem --pairing spin
	bench_rejects "--max-entries 64 is too small: 2 producers use 128 keys" htab-mem -p2 --max-entries 64
	bench_rejects "needs an even number of producers" htab-mem -p3 --use-case add_del_on_diff_cpu
	bench_rejects "at most 256 producers" htab-mem -p258 --use-case add_del_on_diff_cpu --max-entries 100000
}

# field REGEX TEXT: the first group of the first line of TEXT that matches
field() {
	sed -nE "s/.*$1.*/\1/p" <<<"$2" | head -n1
}

test_outcomes() {
	local before use_case flavour out growth usage expected opt
	before=$(snapshot)
	# add_del_on_diff_cpu once more with the pairing that is not the default
	for use_case in overwrite batch_add_batch_del add_del_on_diff_cpu add_del_on_diff_cpu/turn; do
		for flavour in bpf-ma prealloc; do
			opt=()
			[[ $flavour == bpf-ma ]] || opt=(--preallocated)
			[[ $use_case != */turn ]] || opt+=(--pairing turn)
			out=$("$bench" -w1 -d2 -p2 htab-mem --use-case "${use_case%/turn}" "${opt[@]}" 2>&1) || true
			if ! grep -qE '^Summary: per-prod-op +[0-9.]+ ± +[0-9.]+k/s, memory usage +[0-9.]+ ± +[0-9.]+MiB, peak memory usage +[0-9.]+MiB, map growth +[0-9.]+ ± +[0-9.]+MiB, peak map growth +[0-9.]+MiB$' <<<"$out"; then
				ktap_test_fail "outcomes: $use_case $flavour: no Summary line"
				echo "${out//$'\n'/$'\n'#   }"
				continue
			fi
			if grep -q '^WARNING' <<<"$out" || ! grep -q '^Outcomes' <<<"$out"; then
				ktap_test_fail "outcomes: $use_case $flavour: unexpected outcomes"
				grep -E '^(Outcomes|WARNING)' <<<"$out" | sed 's/^/#   /'
				continue
			fi
			ktap_test_pass "outcomes: $use_case $flavour: $(grep '^Summary' <<<"$out")"
			# upstream's figure, the benchmark's cgroup, holds the map's cgroup
			usage=$(field 'memory usage +([0-9.]+) ±' "$out")
			growth=$(field 'map growth +([0-9.]+) ±' "$out")
			if awk -v u="$usage" -v g="$growth" 'BEGIN { exit !(u >= g) }'; then
				ktap_test_pass "outcomes: $use_case $flavour: memory usage $usage MiB holds the map's $growth MiB"
			else
				ktap_test_fail "outcomes: $use_case $flavour: memory usage $usage MiB is less than the map's growth $growth MiB"
			fi
			[[ $flavour == prealloc ]] || continue
			# a preallocated map holds its preallocated size from the start, and no more
			expected=$(field '^Expected preallocated size: ([0-9.]+)MiB' "$out")
			if awk -v g="$growth" -v e="$expected" 'BEGIN { exit !(e > 0 && g >= 0.9 * e && g <= 1.1 * e) }'; then
				ktap_test_pass "outcomes: $use_case prealloc: growth $growth MiB, expected $expected MiB"
			else
				ktap_test_fail "outcomes: $use_case prealloc: growth $growth MiB is not within 10% of the expected $expected MiB"
			fi
		done
	done
	nothing_left "normal exits" "$before"
}

# start_bench [-g] [-d SECS] OUT ARGS...: start a run of SECS (default 60) in the background,
# line-buffered into OUT, and wait until it measures; sets $pid. -g: in a process group of its
# own, whose id is $pid (setsid runs it in place: it is no group leader here).
start_bench() {
	local out _ group=() secs=60
	[[ $1 != -g ]] || { group=(setsid); shift; }
	[[ $1 != -d ]] || { secs=$2; shift 2; }
	out=$1
	shift
	"${group[@]}" stdbuf -oL "$bench" -w1 -d"$secs" -p2 htab-mem "$@" >"$out" 2>&1 &
	pid=$!
	for _ in $(seq 300); do
		grep -q '^Iter' "$out" && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	echo "# the benchmark did not start:"
	sed 's/^/#   /' "$out"
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	return 1
}

test_sigterm() {
	local before pid
	before=$(snapshot)
	start_bench "$scratch/sigterm.out" --use-case batch_add_batch_del || { ktap_test_fail "sigterm: no run"; return; }
	kill -TERM "$pid"
	wait "$pid" || true
	nothing_left "SIGTERM" "$before"
}

test_kill9() {
	local before pid
	before=$(snapshot)
	start_bench "$scratch/kill9.out" --use-case add_del_on_diff_cpu || { ktap_test_fail "kill9: no run"; return; }
	if [[ -d $cg/htab_mem.$pid ]]; then
		ktap_test_pass "kill9: the benchmark runs in $cg/htab_mem.$pid"
	else
		ktap_test_fail "kill9: no cgroup $cg/htab_mem.$pid while running"
	fi
	kill -KILL "$pid"
	wait "$pid" || true
	nothing_left "SIGKILL" "$before"
}

# SIGKILL to the benchmark's whole process group, as timeout(1) sends it (it signals its group):
# the reaper must not be in that group, or nothing is left to remove the cgroup.
test_killgroup() {
	local before pid
	before=$(snapshot)
	start_bench -g "$scratch/killgroup.out" --use-case add_del_on_diff_cpu || { ktap_test_fail "killgroup: no run"; return; }
	kill -KILL -- -"$pid"
	wait "$pid" || true
	nothing_left "SIGKILL to the process group" "$before"
}

# `| head -1` closes the pipe after the first line: the next line the benchmark writes raises
# SIGPIPE. Line-buffered, so that it happens while it runs, not at exit.
test_head() {
	local before first status
	before=$(snapshot)
	first=$(set +e; stdbuf -oL "$bench" -w1 -d60 -p2 htab-mem --use-case overwrite 2>/dev/null | head -n1; echo "${PIPESTATUS[0]}")
	status=${first##*$'\n'}
	if ((status == 128 + 13)); then
		ktap_test_pass "head: the benchmark died of SIGPIPE after: ${first%%$'\n'*}"
	else
		ktap_test_fail "head: the benchmark exited with $status, expected death by SIGPIPE (141)"
	fi
	nothing_left "| head -1" "$before"
}

# Without any cgroup2 mount the benchmark mounts its own, which must live and die with it. The
# hierarchy is unmounted only in a mount namespace of this test's own, and mounted again there to
# look at the cgroups.
test_nomount() {
	local before
	before=$(snapshot)
	# shellcheck disable=SC2016 # the inner bash expands $1, $out and the rest
	if unshare -m --propagation private bash -c '
		set -euo pipefail
		umount '"$cg"'
		mountpoint -q '"$cg"' && { echo "not ok: still mounted"; exit 1; }
		mounts=$(cat /proc/self/mountinfo)
		out=$("$1" -w1 -d1 -p2 htab-mem --use-case overwrite --preallocated 2>&1) || true
		grep -q "^Summary:" <<<"$out" || { echo "# no Summary without a cgroup2 mount:"; sed "s/^/#   /" <<<"$out"; exit 1; }
		[[ $(cat /proc/self/mountinfo) == "$mounts" ]] || { echo "# a mount is left after a normal exit"; exit 1; }
		stdbuf -oL "$1" -w1 -d60 -p2 htab-mem >"$2" 2>&1 &
		pid=$!
		for i in $(seq 300); do grep -q "^Iter" "$2" && break; sleep 0.1; done
		grep -q "^Iter" "$2" || { echo "# did not start"; exit 1; }
		kill -KILL $pid
		wait $pid || true
		sleep 1
		if [[ $(cat /proc/self/mountinfo) != "$mounts" ]]; then
			echo "# a mount is left after SIGKILL:"
			diff <(echo "$mounts") /proc/self/mountinfo | sed "s/^/#   /"
			exit 1
		fi
	' bash "$bench" "$scratch/nomount.out"; then
		ktap_test_pass "nomount: the benchmark mounted cgroup2 only for itself"
	else
		ktap_test_fail "nomount: the benchmark's own cgroup2 mount outlived it"
	fi
	nothing_left "no cgroup2 mount" "$before"
}

# The reaper killed while the benchmark runs: the benchmark must still end normally (status 0) and
# undo everything itself. Telling a reaper that is gone "done"
# must not raise SIGPIPE in the middle of that cleanup.
test_noreaper() {
	local before pid reaper status=0 _
	before=$(snapshot)
	start_bench -d 10 "$scratch/noreaper.out" --use-case overwrite || { ktap_test_fail "noreaper: no run"; return; }
	reaper=$(pgrep -P "$pid" | head -n1 || true)
	if [[ -z $reaper ]]; then
		ktap_test_fail "noreaper: the run has no reaper"
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" || true
		return
	fi
	kill -KILL "$reaper" 2>/dev/null || true
	# The reaper must be dead (a zombie, or reaped once the benchmark is gone) before the benchmark
	# tells it "done" at its end, or that is not tested.
	for _ in $(seq 50); do
		[[ $(ps -o stat= -p "$reaper") =~ ^(Z|$) ]] && break
		sleep 0.1
	done
	if ! [[ $(ps -o stat= -p "$reaper") =~ ^(Z|$) ]]; then
		ktap_test_fail "noreaper: the reaper still ran 5 s after SIGKILL"
		wait "$pid" || true
		return
	fi
	wait "$pid" || status=$?
	if ((status == 0)); then
		ktap_test_pass "noreaper: the benchmark ended normally without its reaper"
	else
		ktap_test_fail "noreaper: the benchmark exited with $status after its reaper was killed, expected 0$( ((status != 128 + 13)) || echo ' (141: SIGPIPE)')"
		tail -n3 "$scratch/noreaper.out" | sed 's/^/#   /'
	fi
	nothing_left "reaper killed" "$before"
}

all=(options outcomes sigterm kill9 killgroup head nomount noreaper)
(($#)) || set -- "${all[@]}"
for t in "$@"; do
	declare -F "test_$t" >/dev/null || ktap_exit_fail_msg "no test '$t' (tests: ${all[*]})"
done
if [[ $* != options ]]; then
	need_root
	if ! grep -qw memory "$cg/cgroup.controllers" 2>/dev/null; then
		ktap_skip_all "no cgroup2 memory controller at $cg (run the tests in the lab VM)"
		exit "$KSFT_SKIP"
	fi
	if grep -qw memory "$cg/cgroup.subtree_control"; then
		ktap_print_msg "memory is already enabled in $cg/cgroup.subtree_control: its revert is not tested"
	fi
fi
for t in "$@"; do
	"test_$t"
done
ktap_finished
