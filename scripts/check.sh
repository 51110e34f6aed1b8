#!/bin/bash
# The lab's tests. Each test is a function that fails by returning non-zero; its output goes to a
# log that is shown only when it fails. Ends with the line "N passed, N failed".
#   scripts/check.sh [TEST...]   (default: all, in order; scripts/check.sh -l lists them)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

S=$LAB_ROOT/scripts
scratch=$(mktemp -d "${TMPDIR:-/tmp}/lab-check.XXXXXX")
cleanup() {
	git -C "$TREE" worktree remove --force "$scratch/tree" >/dev/null 2>&1 || true
	rm -rf "$scratch"
}
trap cleanup EXIT

# scratch_worktree DIR PATCH...: a worktree of the base that checks out only the files the patches
# touch (git am needs nothing else), which takes a second instead of a full 75,000-file checkout.
scratch_worktree() {
	local dir=$1 files
	shift
	git -C "$TREE" worktree add -q --no-checkout --detach "$dir" "$BASE_TAG"
	git -C "$dir" read-tree HEAD
	files=$(sed -n 's|^--- a/||p' "$@" /dev/null | sort -u)
	if [[ -n $files ]]; then
		# shellcheck disable=SC2086 # one word per file
		git -C "$dir" checkout HEAD -- $files
	fi
}

patches() {
	ls "$LAB_ROOT"/patches/[0-9][0-9][0-9][1-9]-*.patch 2>/dev/null || true
}

# expect_fail "message regex" cmd...: the command must exit non-zero and print the message.
expect_fail() {
	local want=$1 out rc=0
	shift
	out=$("$@" 2>&1) || rc=$?
	echo "$out"
	((rc != 0)) || { echo "expected a failure, got exit 0"; return 1; }
	grep -qE "$want" <<<"$out" || { echo "expected the message /$want/"; return 1; }
}

test_tree() {
	"$S/tree.sh"
}

test_series_applies_to_pristine_base() {
	# shellcheck disable=SC2046 # one word per patch
	scratch_worktree "$scratch/tree" $(patches)
	# shellcheck disable=SC2046
	"$S/apply-series.sh" "$scratch/tree" $(patches)
	[[ $(git -C "$scratch/tree" rev-parse 'HEAD^{tree}') == $(git -C "$TREE" rev-parse "$(cut -d' ' -f2 "$TREE/.git/lab-stamp")^{tree}") ]]
}

test_series_round_trip_is_exact() {
	[[ -d $scratch/tree ]] || test_series_applies_to_pristine_base
	SERIES_TREE=$scratch/tree "$S/series.sh" "$scratch/patches"
	diff -r -x cover-letter.txt "$LAB_ROOT/patches" "$scratch/patches"
}

test_broken_patch_is_named() {
	local p
	p=$scratch/0001-broken.patch
	cat >"$p" <<'PATCH'
From: Lab Check <check@lab.invalid>
Subject: [PATCH] broken

---
 kernel/bpf/percpu_freelist.c | 1 +
 1 file changed, 1 insertion(+)

--- a/kernel/bpf/percpu_freelist.c
+++ b/kernel/bpf/percpu_freelist.c
@@ -1,1 +1,1 @@
-this line is not in the file
+/* broken */
PATCH
	scratch_worktree "$scratch/broken" "$p"
	expect_fail 'patch 0001-broken.patch does not apply: kernel/bpf/percpu_freelist.c' "$S/apply-series.sh" "$scratch/broken" "$p"
	git -C "$TREE" worktree remove --force "$scratch/broken"
}

# am_matches_series NAME GIT_AM_ARGS...: git am into a scratch worktree of the base must give
# exactly the tree of the series applied patch by patch.
am_matches_series() {
	local name=$1
	shift
	[[ -d $scratch/tree ]] || test_series_applies_to_pristine_base
	# shellcheck disable=SC2046 # one word per patch
	scratch_worktree "$scratch/$name" $(patches)
	git -C "$scratch/$name" am -q "$@"
	[[ $(git -C "$scratch/$name" rev-parse 'HEAD^{tree}') == $(git -C "$scratch/tree" rev-parse 'HEAD^{tree}') ]]
	git -C "$TREE" worktree remove --force "$scratch/$name"
}

test_mbox_applies_with_git_am() {
	[[ -n $(patches) ]] || { echo "no patches"; return 0; }
	am_matches_series mbox-tree --empty=drop "$("$S/mbox.sh" "$scratch/series.mbox")"
}

test_mbox_applies_with_b4_am() {
	local mbox
	[[ -n $(patches) ]] || { echo "no patches"; return 0; }
	mbox=$("$S/mbox.sh" "$scratch/series.mbox")
	mkdir -p "$scratch/b4"
	(cd "$scratch/b4" && b4 -q am -m "$mbox" -o "$scratch/b4")
	am_matches_series b4-tree "$scratch"/b4/*.mbx
}

test_series_quality_gates() {
	[[ -n $(patches) ]] || { echo "no patches"; return 0; }
	"$S/gates.sh"
}

test_kernel_builds() {
	"$S/kernel.sh" HEAD
}

test_bench_builds() {
	"$S/bench-build.sh" HEAD
}

vm() {
	"$S/vm.sh" -k "$("$S/kernel.sh" HEAD)" -t "${VM_TIMEOUT:-300}" "$@"
}

test_vm_returns_exit_status() {
	local out rc=0
	out=$(vm -- 'uname -r; exit 3') || rc=$?
	echo "$out"
	[[ $rc == 3 ]] || { echo "exit status $rc, expected 3"; return 1; }
	grep -q '^6\.1\.' <<<"$out"
}

test_vm_has_possible_cpus() {
	local out
	out=$(vm -c 2 -p 64 -- 'cat /sys/devices/system/cpu/possible /sys/devices/system/cpu/online')
	echo "$out"
	grep -qx '0-63' <<<"$out" && grep -qx '0-1' <<<"$out"
}

test_vm_attaches_fentry_program() {
	local bench_dir out
	bench_dir=$("$S/bench-build.sh" HEAD)
	out=$(vm -- "cd $bench_dir && ./bench -w1 -d1 trig-fentry")
	echo "$out"
	grep -qE '^Summary: hits +[0-9.]+ ±' <<<"$out"
}

test_vm_timeout_is_a_failure() {
	expect_fail 'VM timed out after 20s' "$S/vm.sh" -k "$("$S/kernel.sh" HEAD)" -t 20 -- 'sleep 1000'
	! pgrep -f "qemu-system-x86_64.*$KERNELS" >/dev/null || { echo "qemu left running"; return 1; }
}

# The guest mounts fresh tmpfs on /tmp: a clone, a cache or a working directory under the host's
# /tmp must still be visible there (check's own scratch directory is one).
test_vm_sees_host_tmp_paths() {
	local dir=$scratch/cwd out
	mkdir -p "$dir"
	echo "seen from the guest" >"$dir/marker"
	out=$(cd "$dir" && vm -- 'pwd; cat marker; touch /tmp/guest-tmp-is-writable && echo writable')
	echo "$out"
	grep -qx "$dir" <<<"$out"
	grep -q "seen from the guest" <<<"$out"
	grep -qx writable <<<"$out"
	[[ ! -e /tmp/guest-tmp-is-writable ]]	# the guest's /tmp is its own
}

test_vm_rejects_bad_options() {
	expect_fail 'possible CPUs \(1\) must be at least the online CPUs \(2\)' "$S/vm.sh" -c 2 -p 1 -- true
	expect_fail 'no command given' "$S/vm.sh" -c 2
	expect_fail "kernel '/nonexistent' not found" "$S/vm.sh" -k /nonexistent -- true
}

test_suite_rejects_unknown_benchmark() {
	expect_fail "no benchmark in config/benchmarks matches 'no-such-bench'" \
		"$S/suite.sh" -b "$("$S/bench-build.sh" HEAD)" -w vm no-such-bench
}

# The bench tests (tests/bench/*.sh, TAP output) run against BENCH=<bench_dir>/bench.
bench_tests=$LAB_ROOT/tests/bench

# The hits bench reports must be the getpgid() calls strace counts, for userspace (trig-base) and
# BPF (trig-rawtp) counters.
test_bench_counters_on_host() {
	local bench_dir
	bench_dir=$("$S/bench-build.sh" HEAD)
	BENCH=$bench_dir/bench "$bench_tests/test_bench_counters.sh"
}

# Every trigger producer must make the same syscall. getpgid() used to get whatever %rsi held, which
# with per-thread counting became the slot index: producer 1 asked for the group of pid 1, a slower
# path, and p2 stopped scaling. trig-base covers the userspace-counting producer, trig-rawtp the
# one that only triggers BPF.
test_trigger_producers_make_equal_syscalls() {
	local bench_dir b trace
	bench_dir=$("$S/bench-build.sh" HEAD)
	for b in trig-base trig-rawtp; do
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

# Each benchmark accepts its own options only; the options and outcomes of bpf-hashmap-full-update,
# and htab-mem's option errors.
test_bench_options_and_outcomes_on_host() {
	local bench_dir
	bench_dir=$("$S/bench-build.sh" HEAD)
	BENCH=$bench_dir/bench "$bench_tests/test_bench_options.sh"
	BENCH=$bench_dir/bench "$bench_tests/test_bench_bpf_hashmap_full_update.sh"
	# the rest of htab-mem needs cgroup v2 with memcg, which this host may lack: see below
	"$S/test-htab-mem.sh" -b "$bench_dir" options
}

# The same tests on the series' kernel, where htab-mem must run. (Not the counters test: under
# strace a TCG guest makes too few calls to compare.)
test_vm_bench_harness_tests() {
	local bench_dir t cmd=""
	bench_dir=$("$S/bench-build.sh" HEAD)
	for t in options bpf_hashmap_full_update; do
		cmd+="BENCH=$bench_dir/bench $bench_tests/test_bench_$t.sh && "
	done
	vm -- "${cmd}true"
}

# htab-mem in the VM, in a mount namespace of its own: outcomes and memory of every use case, and
# nothing left in the mounts or the cgroup hierarchy after a normal exit, SIGTERM, SIGKILL,
# SIGPIPE (`| head -1`) or a run that had to mount cgroup2 itself.
test_vm_htab_mem_leaves_nothing_behind() {
	local bench_dir
	bench_dir=$("$S/bench-build.sh" HEAD)
	VM_TIMEOUT=${VM_TIMEOUT:-600} vm -c 2 -- "unshare -m --propagation private $S/test-htab-mem.sh -b $bench_dir"
}

test_compare_statistics() {
	/usr/bin/python3 "$S/compare/test_stats.py" -v
}

test_freelist_harness() {
	"$LAB_ROOT/tools/testing/pcpu_freelist/run.sh"
	# The multi-threaded benchmark, briefly: that it runs, not what it measures.
	PFL_MT_REPS=1 PFL_MT_MS=20 "$LAB_ROOT/tools/testing/pcpu_freelist/run.sh" mt base series freelist-bitmap-v1
}

all_tests=$(declare -F | awk '$3 ~ /^test_/ { print substr($3, 6) }')
if [[ ${1:-} == -l ]]; then
	echo "$all_tests"
	exit 0
fi
# declare -F sorts by name; run in the order of this file instead.
mapfile -t tests < <(grep -oE '^test_[a-z_0-9]+' "$0" | cut -c6-)
(($#)) && tests=("$@")

passed=0 failed=0 start=$SECONDS
for t in "${tests[@]}"; do
	declare -F "test_$t" >/dev/null || die "no test '$t' (scripts/check.sh -l lists them)"
	t0=$SECONDS
	echo ">>> $t ..." >&2
	# Not in an if: errexit must stay active inside the test's subshell.
	set +e
	(set -e; "test_$t") >"$scratch/$t.log" 2>&1
	rc=$?
	set -e
	if ((rc == 0)); then
		echo "ok   $t ($((SECONDS - t0))s)"
		passed=$((passed + 1))
	else
		echo "FAIL $t ($((SECONDS - t0))s), last lines of its log:"
		tail -n 25 "$scratch/$t.log" | sed 's/^/     | /'
		failed=$((failed + 1))
	fi
done
echo "check took $((SECONDS - start))s"
echo "$passed passed, $failed failed"
((failed == 0))
