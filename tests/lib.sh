# What every test of tests/<tier>/ shares: KTAP output and kselftest's exit codes (tests/ktap.sh),
# a scratch directory, and the lab's facts (scripts/lib.sh, for the base in BASE). Source it; do
# not run it. A test is one executable: it defines a function and ends with
# `run_test FUNCTION "$@"`, which prints "TAP version 13", the plan "1..1", the function's output
# as "# " lines and "ok 1 NAME", "not ok 1 NAME" or "ok 1 NAME # SKIP reason"; it exits 0, 1 or 4
# (skip). A test of several cases calls ktap_print_header and ktap_set_plan N, then
# ktap_test_pass / ktap_test_fail / ktap_test_skip, ktap_finished (kselftest's names: tests/ktap.sh).
# shellcheck shell=bash
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
# shellcheck source=ktap.sh
. "$(dirname "${BASH_SOURCE[0]}")/ktap.sh"

S=$LAB_ROOT/scripts

# The scratch directory: the runner's (LAB_TEST_SCRATCH, removed by the runner), or one of the
# test's own, removed when it exits.
if [[ -n ${LAB_TEST_SCRATCH:-} ]]; then
	scratch=$LAB_TEST_SCRATCH
	mkdir -p "$scratch"
else
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/lab-test.XXXXXX")
	# shellcheck disable=SC2064 # the directory of this run, fixed now
	trap "remove_scratch '$scratch'" EXIT
fi
skip_file=$scratch/.skip-reason

# run_test FUNCTION [ARG...]: the test of one case. FUNCTION fails by returning non-zero (errexit
# is on inside it) and skips with `skip REASON`.
run_test() {
	local fn=$1 rc
	shift
	ktap_print_header
	ktap_set_plan 1
	rm -f "$skip_file"
	set +e
	(
		set -e
		"$fn" "$@"
	) 2>&1 | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}
	set -e
	if ((rc == 0)); then
		ktap_test_pass "$fn"
	elif ((rc == KSFT_SKIP)) && [[ -f $skip_file ]]; then
		ktap_test_skip "$fn" "$(cat "$skip_file")"
		# (kselftest's exit status of a test that ran nothing: its ktap_finished says 0)
		ktap_print_totals
		exit "$KSFT_SKIP"
	else
		ktap_test_fail "$fn"
	fi
	ktap_finished
}

# poll TENTHS CMD...: run CMD every 0.1 s until it succeeds, at most TENTHS times, then once more;
# returns CMD's last status. ended PID: PID no longer runs. sleep_runs SECS, sleep_gone SECS: a
# `sleep SECS` runs, or none does (the tests that stop processes sleep for a length no other
# process uses).
poll() {
	local n=$1 i
	shift
	for ((i = 0; i < n; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	"$@"
}
ended() {
	! kill -0 "$1" 2>/dev/null
}
sleep_runs() {
	pgrep -fx "sleep $1" >/dev/null
}
sleep_gone() {
	! sleep_runs "$1"
}

# sigterm_ends PID SECS: SIGTERM to PID, a script that runs `sleep SECS` below it: PID must end
# within 10 s and leave no `sleep SECS` running. Sets term_rc to PID's exit status. When it does
# not, says what is left, and kills it.
sigterm_ends() {
	local pid=$1 secs=$2
	term_rc=0
	kill -TERM "$pid"
	if ! poll 100 ended "$pid"; then
		echo "the script still runs 10 s after SIGTERM"
		kill -KILL "$pid"
		pkill -fx "sleep $secs"
		return 1
	fi
	wait "$pid" || term_rc=$?
	if ! poll 20 sleep_gone "$secs"; then
		echo "the script ended (status $term_rc) and left its child running: sleep $secs"
		pkill -fx "sleep $secs"
		return 1
	fi
}

# skip "reason": end the test as skipped, with the reason on its line.
skip() {
	echo "$*" >"$skip_file"
	exit "$KSFT_SKIP"
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

# The series, its tree and its commits.
patches() {
	series_patches "$PATCHES"
}

# need_patches: skip a test of the series when the base has none.
need_patches() {
	[[ -n $(patches) ]] || skip "no patches in $PATCHES"
}

# tree_head: the tree's commit that has patches/ applied (from tree.sh's stamp).
tree_head() {
	cut -d' ' -f2 "$TREE/.git/lab-stamp"
}

# scratch_worktree DIR PATCH...: a worktree of the base with the files the patches touch (lib.sh).
scratch_worktree() {
	local dir=$1
	shift
	scratch_worktree_of "$TREE" "$dir" "$@"
}

# commit_messages DIR [REV]: author, subject, body and trailers of each commit from the base to REV
# (default HEAD), oldest first, as the maintainer would read them.
commit_messages() {
	git -C "$1" log --reverse --format='=== commit ===%n%an <%ae>%n%s%n%n%b' "$BASE_TAG..${2:-HEAD}"
}

# same_commits_as_tree DIR: the commits of DIR from the base on have the tree's content, and the
# tree's author, subject, body and trailers byte for byte, one commit per patch; git
# interpret-trailers finds a Signed-off-by in every one of them.
same_commits_as_tree() {
	local dir=$1 c n=0
	[[ $(git -C "$dir" rev-parse 'HEAD^{tree}') == $(git -C "$TREE" rev-parse "$(tree_head)^{tree}") ]] ||
		{ echo "$dir: the files differ from the tree's"; return 1; }
	diff -u <(commit_messages "$TREE" "$(tree_head)") <(commit_messages "$dir") ||
		{ echo "$dir: commit messages differ from the tree's (- tree, + $dir)"; return 1; }
	for c in $(git -C "$dir" rev-list --reverse "$BASE_TAG..HEAD"); do
		git -C "$dir" log -1 --format=%B "$c" | git interpret-trailers --parse | grep -q '^Signed-off-by: ' ||
			{ echo "no Signed-off-by trailer in: $(git -C "$dir" log -1 --format='%h %s' "$c")"; return 1; }
		n=$((n + 1))
	done
	((n == $(patches | wc -l))) || { echo "$dir: $n commits for $(patches | wc -l) patches"; return 1; }
	echo "$dir: $n commits, messages identical to the tree's, each with Signed-off-by"
}

# am_matches_series NAME GIT_AM_ARGS...: git am into a scratch worktree of the base must give the
# tree's commits: same files, same author, subject, body and trailers.
am_matches_series() {
	local name=$1
	shift
	# shellcheck disable=SC2046 # one word per patch
	scratch_worktree "$scratch/$name" $(patches)
	git -C "$scratch/$name" am -q "$@"
	same_commits_as_tree "$scratch/$name"
	git -C "$TREE" worktree remove --force "$scratch/$name"
}

# The VM tests boot a copy of the kernel under $scratch: `pgrep -f "$scratch/"` then finds only this
# test's QEMU, never another run's on the same machine.
vm_kernel() {
	local kernel
	if [[ ! -f $scratch/kernel/bzImage ]]; then
		mkdir -p "$scratch/kernel"
		kernel=$("$S/kernel.sh" HEAD)
		cp "$kernel/bzImage" "$scratch/kernel/bzImage"
	fi
	echo "$scratch/kernel/bzImage"
}

# vm [vm.sh options] -- CMD: the kernel of HEAD in the VM, under the tests' time limit.
vm() {
	local kernel
	kernel=$(vm_kernel)
	"$S/vm.sh" -k "$kernel" -t "$VM_TEST_TIMEOUT" "$@"
}

# our_qemu: the QEMU processes of this test.
our_qemu() {
	pgrep -f -- "-kernel $scratch/" || true
}

# interrupt_vm OUT SECS CMD...: run CMD, a vm.sh command line whose guest prints guest-started, in
# a process group of its own (setsid runs CMD in place: its pid is the group's), its output in
# OUT; once the guest runs, SIGINT the whole group, as a terminal's Ctrl-C does, and wait up to
# SECS seconds for CMD to end. Sets vm_rc to its exit status. Fails, killing what is left, when
# the guest never started or CMD outlived SECS.
# shellcheck disable=SC2034 # vm_rc is read by the caller
interrupt_vm() {
	local out=$1 secs=$2 pid i
	shift 2
	setsid "$@" >"$out" 2>&1 &
	pid=$!
	for ((i = 0; i < 120; i++)); do
		grep -q guest-started "$out" && break
		sleep 1
	done
	grep -q guest-started "$out" || { cat "$out"; kill -- -"$pid"; return 1; }
	kill -INT -- -"$pid"
	for ((i = 0; i < secs; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "vm.sh still runs ${secs}s after SIGINT; qemu: $(our_qemu)"
		kill -- -"$pid"
		# shellcheck disable=SC2046 # one word per pid
		kill $(our_qemu) 2>/dev/null
		return 1
	fi
	vm_rc=0
	wait "$pid" || vm_rc=$?
}

# The bench tests (tests/bench/test_bench_NAME.sh, TAP output) run against BENCH=<bench_dir>/bench.
# shellcheck disable=SC2034 # read by the tests that source this file
bench_tests=$LAB_ROOT/tests/bench

# bench_dir: the bench of HEAD, built if needed.
bench_dir() {
	"$S/bench-build.sh" HEAD
}

# lists_give_reasons ENTRY FILE...: every entry of the lists (a line neither blank nor a comment) is
# ENTRY (an extended regex, from the line's start) followed by `# reason`; names those that are not,
# counts the entries, and fails when one has no reason or there is none.
lists_give_reasons() {
	local entry=$1 f line bad=0 n=0
	shift
	for f in "$@"; do
		[[ -f $f ]] || continue
		while IFS= read -r line; do
			[[ -z ${line//[[:space:]]/} || $line == '#'* ]] && continue
			n=$((n + 1))
			[[ $line =~ ^${entry}[[:space:]]+#[[:space:]]*[^[:space:]] ]] || {
				echo "$f: no reason given: $line"
				bad=1
			}
		done <"$f"
	done
	echo "$n entries"
	((n > 0 && bad == 0))
}

# copy_matrix_lab DIR: what make matrix reads (README.md, EVIDENCE.md, config, scripts, patches,
# records, Documentation) copied into DIR for a test to change; records/ and patches/ are hard
# links where the file system allows them (18 MB that a test replaces file by file, never writes
# in place), else copies.
copy_matrix_lab() {
	local dir=$1 f
	mkdir -p "$dir"
	for f in README.md EVIDENCE.md config scripts Documentation; do
		[[ ! -e $LAB_ROOT/$f ]] || cp -r "$LAB_ROOT/$f" "$dir/"
	done
	for f in records patches; do
		cp -al "$LAB_ROOT/$f" "$dir/" 2>/dev/null || { rm -rf "${dir:?}/$f"; cp -r "$LAB_ROOT/$f" "$dir/"; }
	done
}

# fake_lab_copy DIR: a copy of the lab in DIR (with DIR/cache for LAB_CACHE) whose tree.sh and
# deps.sh do nothing, and a tree of one commit in DIR/tree, tagged as the base; the caller adds
# its fakes of what builds or boots
fake_lab_copy() {
	local lab=$1 f
	mkdir -p "$lab/cache"
	cp -a "$LAB_ROOT/Makefile" "$LAB_ROOT/scripts" "$LAB_ROOT/config" "$LAB_ROOT/lab" "$lab/"
	for f in tree.sh deps.sh; do
		printf '#!/bin/bash\nexit 0\n' >"$lab/scripts/$f"
	done
	git init -q "$lab/tree"
	git -C "$lab/tree" -c user.name=lab -c user.email=lab@localhost commit -q --allow-empty -m base
	git -C "$lab/tree" tag lab-base
}

# own_tree DIR VERSION PATCHLEVEL: a kernel checkout of the user's own for TREE=, as small as the
# lab can read it: a Makefile of that version, committed on branch upstream; branch main (checked
# out, upstream its upstream) one commit on. Prints nothing; git runs as "dev".
own_tree() {
	local dir=$1
	mkdir -p "$dir"
	git -C "$dir" init -q -b main
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\nEXTRAVERSION =\n' "$2" "$3" >"$dir/Makefile"
	git -C "$dir" add Makefile
	git -C "$dir" -c user.name=dev -c user.email=dev@localhost commit -q -m base
	git -C "$dir" branch upstream
	git -C "$dir" branch -q --set-upstream-to=upstream
	echo series >"$dir/series.c"
	git -C "$dir" add series.c
	git -C "$dir" -c user.name=dev -c user.email=dev@localhost commit -q -m series
}

# refused WANT [VAR=VALUE...]: `make -n compare` with those knobs stops with the one line
# "error: WANT..." (make's own *** line and the recipes make -n prints aside) and a non-zero exit
refused() {
	local want=$1 out rc=0
	shift
	out=$(cd "$LAB_ROOT" && env "$@" make -s -n compare 2>&1) || rc=$?
	out=$(grep -vE '^make(\[[0-9]+\])?: \*\*\*|^scripts/[^ ]*\.sh$' <<<"$out" || true)
	echo "make -n compare $*: exit $rc: $out"
	((rc != 0)) || { echo "expected a non-zero exit"; return 1; }
	[[ $(wc -l <<<"$out") == 1 && $out == "error: $want"* ]] || { echo "expected the one line 'error: $want...'"; return 1; }
}

# fake_kit_lab DIR BASE_BUILD_ID SERIES_BUILD_ID: a copy of the lab in DIR (fake_lab_copy, with
# patches/, committed: the kit's records name its commit) on which `make kit` runs in seconds: the
# tree gets a second commit (the series), kernel.sh gives the base's or the series' fake kernel
# (DIR/kernels/{base,series}: a bzImage of a setup header and a version string, a vmlinux of that
# build id), bench-build.sh a fake bench (DIR/bench: it prints its arguments and a Summary line).
# Run make with LAB_CACHE=DIR/cache LAB_TREE=DIR/tree.
fake_kit_lab() {
	local lab=$1 which id version k
	command -v gcc >/dev/null || skip "no gcc: the fake kernels' vmlinux is an ELF file of a build id"
	fake_lab_copy "$lab"
	cp -a "$LAB_ROOT/patches" "$lab/"
	git -C "$lab/tree" -c user.name=lab -c user.email=lab@localhost commit -q --allow-empty -m series
	for which in base series; do
		k=$lab/kernels/$which
		id=$2
		[[ $which == base ]] || id=$3
		version="7.3.4+ (lab@$which) #1 SMP PREEMPT Mon Dec  7 01:06:28 UTC 2026"
		mkdir -p "$k"
		# the setup header: "HdrS" at 0x202, at 0x20e the version string's offset from 0x200 (0x200)
		{ head -c 514 /dev/zero; printf HdrS; head -c 8 /dev/zero; printf '\000\002'; head -c 496 /dev/zero
			printf '%s\000' "$version"; } >"$k/bzImage"
		printf 'int main(void) { return 0; }\n' | gcc -x c - -o "$k/vmlinux" -Wl,--build-id=0x"$id"
		echo "CONFIG_BPF=y" >"$k/.config"
	done
	mkdir -p "$lab/bench/benchs"
	cat >"$lab/bench/bench" <<'BENCH'
#!/bin/bash
[[ ${1:-} != --help ]] || { echo "usage: bench [-w S] [-d S] [-p N] NAME"; exit 0; }
echo "Setting up benchmark..."
echo "args: $*"
echo "Summary: hits    1.000 ± 0.010M/s (  1.000M/prod), drops    0.000 ± 0.000M/s, total operations    1.000 ± 0.010M/s"
BENCH
	chmod +x "$lab/bench/bench"
	# shellcheck disable=SC2016 # expanded by the fake kernel.sh
	printf '#!/bin/bash\n[[ $1 == "$(git -C %q rev-parse lab-base)" ]] && echo %q || echo %q\n' \
		"$lab/tree" "$lab/kernels/base" "$lab/kernels/series" >"$lab/scripts/kernel.sh"
	printf '#!/bin/bash\necho %q\n' "$lab/bench" >"$lab/scripts/bench-build.sh"
	printf '%s/\n' tree cache kernels bench unpacked >"$lab/.gitignore"
	git -C "$lab" init -q
	git -C "$lab" add -A
	git -C "$lab" -c user.name=lab -c user.email=lab@localhost commit -q -m lab
}

# fake_kit DIR BASE_BUILD_ID SERIES_BUILD_ID: make kit on fake_kit_lab DIR, the kit unpacked in
# DIR/unpacked; prints the kit's directory
fake_kit() {
	local lab=$1 tarball
	fake_kit_lab "$@" >&2
	tarball=$(LAB_CACHE=$lab/cache LAB_TREE=$lab/tree make -s -C "$lab" kit | tail -n1)
	mkdir -p "$lab/unpacked"
	tar -C "$lab/unpacked" -xzf "$tarball"
	echo "$lab/unpacked/$(basename "$tarball" .tar.gz)"
}
