#!/bin/bash
# htab-mem in the VM, in a mount namespace of its own: outcomes and memory of every use case, and
# nothing left in the mounts or the cgroup hierarchy after a normal exit, SIGTERM, SIGKILL (to the
# benchmark, or to its process group), SIGPIPE (`| head -1`), a run that had to mount cgroup2, or
# its reaper killed before it ends (it must still exit 0).
# Plant: htab-mem without its cleanup on SIGTERM (the series' htab-mem patch with the signal
# handler removed), or its reaper left in the benchmark's process group (no setpgid()), or
# tests/bench/test_bench_htab_mem.sh's mount check dropped: a cgroup is left behind; or the reaper told
# with write() on a pipe (lab/plants/htab-mem-reaper-write.patch): exit 141 once it is gone.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_htab_mem_leaves_nothing_behind() {
	local bench_dir
	bench_dir=$(bench_dir)
	VM_TEST_TIMEOUT=600 vm -c 2 -- "BENCH=$bench_dir/bench unshare -m --propagation private $bench_tests/test_bench_htab_mem.sh"
}

run_test vm_htab_mem_leaves_nothing_behind "$@"
