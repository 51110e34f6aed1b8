#!/bin/bash
# The options of the htab-mem benchmark, its outcome in each use case, and that it removes its
# cgroup (and its cgroup2 mount, if it made one) on a normal exit and when interrupted.
#   BENCH=path/to/bench tests/bench/test_bench_htab_mem.sh
# Needs root and a cgroup v2 memory controller; without one only the options are tested and the
# rest is skipped. The cgroup2 mount test unmounts /sys/fs/cgroup: it runs only in a private mount
# namespace of its own (unshare -m), so the machine's mounts are never touched.
set -euo pipefail
# shellcheck source=tap.sh
. "$(dirname "$0")/tap.sh"

leftovers() {
	find /sys/fs/cgroup /tmp -maxdepth 2 -name 'htab_mem_*' 2>/dev/null || true
	grep htab_mem_cgroup2 /proc/self/mounts || true
}

bad_option "invalid --use-case 'bogus'" htab-mem --use-case bogus
bad_option "valid ones are overwrite, batch_add_batch_del, add_del_on_diff_cpu" htab-mem --use-case ""
bad_option "invalid --value-size '0'" htab-mem --value-size 0
bad_option "invalid --value-size '4097'" htab-mem --value-size 4097
bad_option "invalid --value-size '8k'" htab-mem --value-size 8k
bad_option "invalid --value-size '0'" htab-mem --value_size 0
bad_option "even number of producers" htab-mem -p3 --use-case add_del_on_diff_cpu

out=$("$BENCH" -w1 -d1 htab-mem 2>&1) || true
if grep -qE 'no memory controller|no cgroup v2' <<<"$out"; then
	why=$(grep -E 'no memory controller|no cgroup v2' <<<"$out")
	if [[ -z $(leftovers) ]]; then
		ok "nothing left behind after failing: $why"
	else
		not_ok "left behind after failing: $(leftovers)"
	fi
	skip "use cases and cleanup" "no cgroup v2 memory controller"
	tap_done
fi

summary_re='^Summary: per-prod-op +[0-9.]+ ± +[0-9.]+k/s, '
summary_re+='memory usage +[0-9.]+ ± +[0-9.]+MiB, peak memory usage +[0-9.]+MiB$'
for use_case in overwrite batch_add_batch_del add_del_on_diff_cpu; do
	for prealloc in "" --preallocated; do
		out=$("$BENCH" -w1 -d1 -p2 htab-mem --use-case $use_case $prealloc --value-size 32 2>&1) || true
		summary=$(tail -n1 <<<"$out")
		if [[ ! $summary =~ $summary_re ]]; then
			not_ok "$use_case $prealloc: bad summary"
			comment "$out"
		elif [[ $summary =~ per-prod-op\ +0\.00\  ]]; then
			not_ok "$use_case $prealloc: no ops: $summary"
		else
			ok "$use_case $prealloc: $summary"
		fi
	done
done
if [[ -z $(leftovers) ]]; then
	ok "nothing left behind after normal exits"
else
	not_ok "left behind after normal exits: $(leftovers)"
fi

# interrupted: the cgroup must go as well
for sig in INT TERM; do
	"$BENCH" -w1 -d60 htab-mem >/dev/null 2>&1 &
	pid=$!
	running=no
	for ((i = 0; i < 300; i++)); do	# up to 30 s on a busy machine
		[[ -d /sys/fs/cgroup/htab_mem_bench.$pid ]] && { running=yes; break; }
		sleep 0.1
	done
	sleep 1		# into the measurements
	kill -"$sig" "$pid"
	wait "$pid" || true
	if [[ $running == no ]]; then
		not_ok "SIG$sig: no cgroup while running"
	elif [[ -n $(leftovers) ]]; then
		not_ok "SIG$sig: left behind: $(leftovers)"
	else
		ok "SIG$sig: cleaned up"
	fi
done

# without a cgroup2 mount the benchmark mounts its own and unmounts it at exit
# shellcheck disable=SC2016 # expanded by the inner shell
out=$(unshare -m --propagation private bash -c '
	umount /sys/fs/cgroup || exit 3
	out=$("$1" -w1 -d1 htab-mem 2>&1)
	echo "$out"
	grep htab_mem_cgroup2 /proc/self/mounts && exit 2
	exit 0' - "$BENCH" 2>&1) && rc=0 || rc=$?
if ((rc == 3)); then
	skip "own cgroup2 mount" "cannot unmount /sys/fs/cgroup in a private namespace"
elif ((rc == 2)); then
	not_ok "own cgroup2 mount: left mounted"
	comment "$out"
elif ! grep -q '^Summary:' <<<"$out"; then
	not_ok "own cgroup2 mount: no summary"
	comment "$out"
elif [[ -n $(find /tmp -maxdepth 1 -name 'htab_mem_cgroup2.*') ]]; then
	not_ok "own cgroup2 mount: its mount point is left in /tmp"
else
	ok "own cgroup2 mount: mounted, used and unmounted"
fi

tap_done
