#!/bin/bash
# The lab's tests. Each test is a function that fails by returning non-zero; its output goes to a
# log that is shown only when it fails. One line a test, numbered, TAP style: "ok N name (time)",
# "not ok N name (time)" with the end of its log, or "ok N name # SKIP reason" for a test that
# cannot run here (the kselftest convention). Ends with the line "N passed, N failed, N skipped".
# The lab's own tests run on the default base (6.1); the tests of a series (base_tests below) run
# again on every other base, named BASE/TEST ("6.12/kernel_builds"). BASE=6.12 runs only those.
#   scripts/check.sh [TEST...]   (default: all, in order; scripts/check.sh -l lists them)
set -euo pipefail
requested_base=${BASE:-}
. "$(dirname "$0")/lib.sh"
default_base=$DEFAULT_BASE

S=$LAB_ROOT/scripts
scratch=$(mktemp -d "${TMPDIR:-/tmp}/lab-check.XXXXXX")
top_scratch=$scratch
skip_file=$scratch/skip-reason
cleanup() {
	local wt tree
	# Every worktree a test made under $scratch, also those of a test that failed half-way, in the
	# tree of every base.
	for tree in "$TREE" "$LAB_CACHE"/*/linux; do
		[[ -d $tree/.git ]] || continue
		for wt in $(git -C "$tree" worktree list --porcelain 2>/dev/null | sed -n "s|^worktree \($top_scratch/.*\)|\1|p"); do
			git -C "$tree" worktree remove --force "$wt" >/dev/null 2>&1 || true
		done
		git -C "$tree" worktree prune 2>/dev/null || true
	done
	rm -rf "$top_scratch"
}
trap cleanup EXIT

# use_base BASE: from here on (in a test's subshell), the lab's paths and facts are those of BASE,
# and the test's scratch files go to a directory of its own.
use_base() {
	unset TREE LAB_PATCHES
	export BASE=$1
	. "$LAB_ROOT/scripts/lib.sh"
	scratch=$top_scratch/$BASE
	mkdir -p "$scratch"
}

# scratch_worktree DIR PATCH...: a worktree of the base with the files the patches touch (lib.sh).
scratch_worktree() {
	local dir=$1
	shift
	scratch_worktree_of "$TREE" "$dir" "$@"
}

patches() {
	series_patches
}

# tree_head: the tree's commit that has patches/ applied (from tree.sh's stamp).
tree_head() {
	cut -d' ' -f2 "$TREE/.git/lab-stamp"
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

# skip "reason": end the test as skipped (kselftest's exit code 4), with the reason on its line.
SKIP=4
skip() {
	echo "$*" >"$skip_file"
	exit "$SKIP"
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

# dev_tree DIR: a clone of the tree for tree.sh to manage (sparse: only the directories the
# series touches are checked out), with the tree's stamp.
dev_tree() {
	local dir=$1
	git clone -q --shared --no-checkout "$TREE" "$dir"
	# shellcheck disable=SC2046 # one word per directory and per patch
	git -C "$dir" sparse-checkout set --no-cone $(sed -n 's|^--- a/\(.*\)/[^/]*$|/\1/|p' $(patches) | sort -u)
	git -C "$dir" checkout -q main
	cp "$TREE/.git/lab-stamp" "$dir/.git/lab-stamp"
}

# tree.sh never loses work: with patches/ changed it refuses to rebuild over uncommitted changes
# or commits that are not in patches/, names them and the command that keeps them; after a failed
# git am it says so again, not something false; series.sh then does not delete the patches
# that were not applied. make kernel says that it builds HEAD. Two runs on one tree take turns.
# A TREE that tree.sh did not make (a developer's own clone, say) is never replaced: make bench,
# compare and scaling all run tree.sh, and an unguarded one once deleted such a clone.
test_tree_leaves_a_foreign_tree_alone() {
	local dir=$scratch/foreign
	mkdir -p "$dir"
	git -C "$dir" init -q
	echo "work" >"$dir/marker"
	expect_fail "$dir exists but was not made by tree.sh" env TREE="$dir" "$S/tree.sh"
	[[ $(cat "$dir/marker" 2>/dev/null) == work ]] || { echo "the foreign tree was replaced"; return 1; }
}

test_tree_never_loses_work() {
	local dev=$scratch/dev tp=$scratch/dev-patches out last
	# The kernel of HEAD, built from the lab's own tree: the sparse dev tree below must find it
	# built, or the build worktree would be made from the sparse tree, without a Makefile.
	"$S/kernel.sh" HEAD >/dev/null
	dev_tree "$dev"
	mkdir -p "$tp"
	cp "$PATCHES"/* "$tp/"
	last=$(patches | tail -n1)
	export TREE=$dev LAB_PATCHES=$tp

	# Another run holds the tree: this one waits for it.
	flock "$dev.lock" sleep 4 &
	sleep 0.5
	out=$("$S/tree.sh" 2>&1)
	echo "$out"
	grep -q "waiting for another run on $dev" <<<"$out" || { echo "did not wait for the lock"; return 1; }
	wait

	echo "/* uncommitted */" >>"$dev/kernel/bpf/percpu_freelist.c"
	"$S/kernel.sh" HEAD 2>&1 | tee "$scratch/dev-kernel.out"
	grep -q "uncommitted changes; this builds the committed HEAD" "$scratch/dev-kernel.out"
	rm "$tp/$(basename "$last")"	# patches/ changed
	expect_fail "stash push --all" "$S/tree.sh"
	expect_fail "M kernel/bpf/percpu_freelist.c" "$S/tree.sh"
	grep -q uncommitted "$dev/kernel/bpf/percpu_freelist.c" || { echo "the uncommitted edit is lost"; return 1; }
	git -C "$dev" stash push -q --all	# the command it names
	"$S/tree.sh"
	[[ -n $(git -C "$dev" stash list) ]] || { echo "the stash is lost"; return 1; }

	git -C "$dev" commit -q -s --allow-empty -m "lab: a commit of the developer"
	cp "$last" "$tp/"	# patches/ changed again
	expect_fail "lab: a commit of the developer" "$S/tree.sh"
	expect_fail "keep them with: make series" "$S/tree.sh"
	[[ $(git -C "$dev" log -1 --format=%s) == "lab: a commit of the developer" ]] || { echo "the commit is lost"; return 1; }
	git -C "$dev" reset -q --hard HEAD^

	# A patch that does not apply (the third): the next run says the same, true thing.
	awk '/^@@ / { hunk = 1 } hunk && !done && /^-[^-]/ { $0 = $0 " planted mismatch"; done = 1 } { print }' \
		"$(patches | sed -n 3p)" >"$tp/$(basename "$(patches | sed -n 3p)")"
	expect_fail "patch $(basename "$(patches | sed -n 3p)") does not apply" "$S/tree.sh"
	expect_fail "patch $(basename "$(patches | sed -n 3p)") does not apply" "$S/tree.sh"
	expect_fail "would delete patches that are not in the tree: $(patches | sed -n '3,$p' | xargs -n1 basename | xargs)" "$S/series.sh"
	[[ $(LAB_PATCHES=$tp bash -c '. "$1/lib.sh"; series_patches' - "$S" | wc -l) == $(patches | wc -l) ]] ||
		{ echo "series.sh deleted patches"; ls "$tp"; return 1; }
}

# The base is pinned: when apt serves another version of the package (simulated: stand-in apt-get,
# apt-cache and dpkg-query), deps.sh and base.sh stop with one line naming both versions and the
# knob, and install nothing.
test_base_version_is_pinned() {
	local fake=$scratch/fake-apt
	mkdir -p "$fake"
	printf '#!/bin/sh\necho "apt-get $*" >>"%s/apt-get.log"\n' "$fake" >"$fake/apt-get"
	printf '#!/bin/sh\necho " %s | 6.1.999-1 | http://deb.debian.org/debian bookworm/main amd64 Packages"\n' \
		"$BASE_PACKAGE" >"$fake/apt-cache"
	printf '#!/bin/sh\nexit 1\n' >"$fake/dpkg-query"	# nothing installed
	chmod +x "$fake"/*
	expect_fail "^error: apt serves $BASE_PACKAGE 6.1.999-1, not $BASE_PACKAGE_VERSION, the base of the series .*ALLOW_BASE_VERSION=1" \
		env PATH="$fake:$PATH" "$S/deps.sh"
	! grep install "$fake/apt-get.log" || { echo "deps.sh installed something"; return 1; }
	printf '#!/bin/sh\necho "install ok installed 6.1.999-1"\n' >"$fake/dpkg-query"	# another version installed
	expect_fail "^error: $BASE_PACKAGE 6.1.999-1 is installed, the series is based on $BASE_PACKAGE_VERSION .*ALLOW_BASE_VERSION=1" \
		env PATH="$fake:$PATH" "$S/base.sh"
}

test_series_applies_to_pristine_base() {
	local f
	[[ -n $(patches) ]] || skip "no patches in $PATCHES"
	# The base commit holds the pristine package's files: each file the series changes is byte
	# for byte the one extracted from the package.
	# shellcheck disable=SC2046 # one word per patch
	for f in $(sed -n 's|^--- a/||p' $(patches) | sort -u); do
		[[ -f $BASE_DIR/$f ]] || continue	# added by an earlier patch
		git -C "$TREE" cat-file blob "$BASE_TAG:$f" | cmp -s - "$BASE_DIR/$f" ||
			{ echo "$f in $BASE_TAG differs from $BASE_DIR/$f"; return 1; }
	done
	# shellcheck disable=SC2046 # one word per patch
	scratch_worktree "$scratch/tree" $(patches)
	# shellcheck disable=SC2046
	"$S/apply-series.sh" "$scratch/tree" $(patches)
	same_commits_as_tree "$scratch/tree"
}

test_series_round_trip_is_exact() {
	[[ -n $(patches) ]] || skip "no patches in $PATCHES"
	[[ -d $scratch/tree ]] || test_series_applies_to_pristine_base
	SERIES_TREE=$scratch/tree "$S/series.sh" "$scratch/patches"
	diff -r -x cover-letter.txt "$PATCHES" "$scratch/patches"
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

test_mbox_applies_with_git_am() {
	local mbox subject want
	[[ -n $(patches) ]] || skip "no patches in $PATCHES"
	mbox=$("$S/mbox.sh" "$scratch/series.mbox")
	# The cover letter comes first, with the subject of patches/cover-letter.txt.
	subject=$(sed -n 's/^Subject: //p' "$mbox" | head -n1)
	want="[PATCH 0/$(patches | wc -l)] $(head -n1 "$PATCHES/cover-letter.txt")"
	[[ ${subject/#\[PATCH 00/[PATCH 0} == "$want" ]] ||	# git numbers 00/10 from 10 patches on
		{ echo "cover letter subject '$subject', expected '$want'"; return 1; }
	am_matches_series mbox-tree --empty=drop "$mbox"
}

test_mbox_applies_with_b4_am() {
	local mbox
	[[ -n $(patches) ]] || skip "no patches in $PATCHES"
	mbox=$("$S/mbox.sh" "$scratch/series.mbox")
	mkdir -p "$scratch/b4"
	(cd "$scratch/b4" && b4 -q am -m "$mbox" -o "$scratch/b4")
	am_matches_series b4-tree "$scratch"/b4/*.mbx
}

# "The series' patches" has one definition (lib.sh's series_patches), and it holds for a series of
# 12: 0010 is a patch like any other, 0000 the cover letter. A synthetic series of 12 commits goes
# through series.sh, series_hash (tree.sh's stamp), apply-series.sh and mbox.sh + git am.
test_series_of_twelve_patches() {
	local i p12=$scratch/p12 list h1 h2 own
	own=$(grep -l '\[0-9\]\[0-9\]\[0-9\]' "$S"/*.sh "$S"/compare/*.sh | grep -v '/lib\.sh$' || true)
	[[ -z $own ]] || { echo "patch globs outside lib.sh: $own"; return 1; }
	scratch_worktree "$scratch/twelve"
	for i in $(seq 1 12); do
		echo "line $i" >>"$scratch/twelve/lab-twelve.txt"
		git -C "$scratch/twelve" add lab-twelve.txt
		git -C "$scratch/twelve" commit -q -s -m "lab: synthetic patch $i" -m "Patch $i of 12."
	done
	mkdir -p "$p12"
	printf 'twelve synthetic patches\n\nA series of 12, for check.sh.\n' >"$p12/cover-letter.txt"
	LAB_PATCHES=$p12 SERIES_TREE=$scratch/twelve "$S/series.sh" >/dev/null
	list=$(LAB_PATCHES=$p12 bash -c '. "$1/lib.sh"; series_patches' - "$S" | xargs -n1 basename | cut -c1-4 | xargs)
	echo "series_patches: $list"
	[[ $list == "$(seq -f %04g -s ' ' 1 12)" ]] || { echo "expected 0001 ... 0012"; return 1; }
	[[ -f $p12/0000-cover-letter.patch ]] || { echo "no cover letter"; return 1; }
	# The stamp of tree.sh covers every patch: 0010 changed means patches/ changed.
	h1=$(LAB_PATCHES=$p12 bash -c '. "$1/lib.sh"; series_hash' - "$S")
	echo " " >>"$p12/0010-lab-synthetic-patch-10.patch"
	h2=$(LAB_PATCHES=$p12 bash -c '. "$1/lib.sh"; series_hash' - "$S")
	[[ $h1 != "$h2" ]] || { echo "series_hash does not see a change of 0010"; return 1; }
	scratch_worktree "$scratch/twelve-am"
	# shellcheck disable=SC2046 # one word per patch
	"$S/apply-series.sh" "$scratch/twelve-am" $(LAB_PATCHES=$p12 bash -c '. "$1/lib.sh"; series_patches' - "$S")
	[[ $(git -C "$scratch/twelve-am" rev-list --count "$BASE_TAG..HEAD") == 12 ]] || { echo "apply-series: not 12 commits"; return 1; }
	LAB_PATCHES=$p12 "$S/mbox.sh" "$scratch/twelve.mbox" >/dev/null
	[[ $(grep -c '^From 0\{40\} Mon Sep 17' "$scratch/twelve.mbox") == 13 ]] || { echo "mbox: not 13 messages"; return 1; }
	grep -qxE 'Subject: \[PATCH 0+/12\] twelve synthetic patches' "$scratch/twelve.mbox" ||
		{ echo "mbox: no cover letter '[PATCH 00/12] twelve synthetic patches'"; return 1; }
	scratch_worktree "$scratch/twelve-mbox"
	git -C "$scratch/twelve-mbox" am -q --empty=drop "$scratch/twelve.mbox"
	[[ $(git -C "$scratch/twelve-mbox" rev-parse 'HEAD^{tree}') == $(git -C "$scratch/twelve" rev-parse 'HEAD^{tree}') ]] ||
		{ echo "mbox: git am gives another tree"; return 1; }
	for i in twelve twelve-am twelve-mbox; do
		git -C "$TREE" worktree remove --force "$scratch/$i"
	done
}

# The W=1 and sparse gates fail when they cannot check: sparse missing, or make failing for any
# reason (an empty warning list must mean "no warning"). gates.sh shows tree.sh's own error, once.
test_gates_fail_when_they_cannot_check() {
	local c stub=$scratch/stub-lab
	c=$(git -C "$TREE" log --format=%H -n1 "$BASE_TAG..$(tree_head)" -- '*.c' ':!tools')
	[[ -n $c ]] || { echo "no commit of the series touches kernel C files"; return 1; }
	expect_fail 'nonexistent-sparse not found' env LAB_SPARSE=/nonexistent-sparse \
		bash -c '. "$1/gates.sh"; no_new_warnings "$2" C=2' - "$S" "$c"
	# make failing for another reason, without a build: a make that fails at once (and no
	# checkout in the shared build worktree).
	expect_fail 'make W=1 of .* at .* failed \(exit 2\)' bash -c '. "$1/gates.sh"
		lock_build_src() { :; }; checkout_commit() { :; }
		lab_make() { echo "make: *** [planted] Error 2"; return 2; }
		no_new_warnings "$2" W=1' - "$S" "$c"
	mkdir -p "$stub"
	cp -a "$LAB_ROOT/scripts" "$LAB_ROOT/config" "$stub/"
	printf '#!/bin/bash\necho run >>"%s"\necho "error: planted tree.sh failure" >&2\nexit 1\n' "$stub/tree-runs" >"$stub/scripts/tree.sh"
	expect_fail '^error: planted tree.sh failure$' "$stub/scripts/gates.sh"
	[[ $(wc -l <"$stub/tree-runs") == 1 ]] || { echo "tree.sh ran $(wc -l <"$stub/tree-runs") times"; return 1; }
}

test_series_quality_gates() {
	[[ -n $(patches) ]] || skip "no patches in $PATCHES"
	"$S/gates.sh"
}

# The lab's builds run make as a top-level make even under `make check-debug`: with an inherited
# MAKELEVEL, 6.1's selftests Makefile leaves OUTPUT empty and the in-tree test_progs build looks
# for its files under / (a dry run of urandom_read shows the include path it would use).
test_builds_run_make_at_top_level() {
	local sel=$TREE/tools/testing/selftests/bpf out f
	for f in kernel.sh bench-build.sh gates.sh tree.sh; do
		! grep -nE '^[^#]*(^|[[:space:]$(])make -' "$S/$f" || { echo "$f runs make without lab_make"; return 1; }
	done
	out=$(MAKELEVEL=1 MAKEFLAGS=s bash -c '. "$1/lib.sh"; lab_make -n -C "$2" urandom_read' - "$S" "$sel" 2>&1 |
		grep -m1 -- '-I') || true
	echo "${out:0:300}"
	grep -qF -- "-I$sel/tools/include" <<<"$out" || { echo "selftests make under MAKELEVEL=1 has OUTPUT empty"; return 1; }
}

# The kernel of HEAD (usually from the cache): what kernel.sh hands out must be that kernel, a
# bzImage of the tree's version, with BTF and the config fragment's options.
test_kernel_builds() {
	local k version
	k=$("$S/kernel.sh" HEAD)
	version=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' <(git -C "$TREE" show HEAD:Makefile) | paste -sd.)
	echo "$k: $(file -b "$k/bzImage")"
	file -b "$k/bzImage" | grep -q "Linux kernel x86 boot executable bzImage, version $version" ||
		{ echo "not a bzImage of $version"; return 1; }
	grep -q ' \.BTF ' < <(readelf -S "$k/vmlinux") || { echo "vmlinux has no BTF"; return 1; }
	grep -v '^#' "$LAB_ROOT/config/bench.config" | grep '=y$' | while read -r opt; do
		grep -qx "$opt" "$k/.config" || { echo "$opt missing from $k/.config"; exit 1; }
	done
}

# The bench of HEAD: it runs and knows every benchmark of the base's registry.
test_bench_builds() {
	local b names
	b=$("$S/bench-build.sh" HEAD)
	"$b/bench" --list >"$scratch/bench-list" 2>&1 || { cat "$scratch/bench-list"; return 1; }
	# the benchmark of a registry row: the first word of its arguments that is not an option or
	# an option's value
	names=$(registry | awk '{ for (i = 4; i <= NF; i++) { if ($i ~ /^-/) { if ($i !~ /^-p/ && $i != "--preallocated") i++; continue } print $i; break } }' | sort -u)
	echo "registry: $(xargs <<<"$names")"
	for name in $names; do
		grep -qx -- "- $name" "$scratch/bench-list" || { echo "bench --list does not name $name"; return 1; }
	done
	[[ -x $b/bench && -d $b/benchs ]]
}

# check.sh reports a test that cannot run as a skip, TAP style, and still ends "N passed, N failed".
test_check_reports_skips() {
	local out
	mkdir -p "$scratch/no-patches"
	out=$(LAB_PATCHES=$scratch/no-patches "$S/check.sh" mbox_applies_with_git_am series_quality_gates 2>/dev/null)
	echo "$out"
	grep -qx "ok 1 mbox_applies_with_git_am # SKIP no patches in $scratch/no-patches" <<<"$out"
	grep -qx "ok 2 series_quality_gates # SKIP no patches in $scratch/no-patches" <<<"$out"
	[[ $(tail -n1 <<<"$out") == "0 passed, 0 failed, 2 skipped" ]]
}

# make check runs the lab's tests on the default base and the series' tests on every other one;
# BASE=6.12 runs only the 6.12 series' tests (a check.sh that took the requested base for the
# default one ran all the lab's tests on 6.12, and failed those of 6.1's patches).
test_check_runs_each_base() {
	local all only
	all=$(env -u BASE "$S/check.sh" -l)
	only=$(BASE=6.12 "$S/check.sh" -l)
	grep -qx tree <<<"$all" && grep -qx 6.12/tree <<<"$all" ||
		{ echo "make check does not run both bases:"; echo "$all"; return 1; }
	echo "BASE=6.12: $(wc -l <<<"$only") tests: $(xargs <<<"$only")"
	! grep -v '^6\.12/' <<<"$only" || { echo "BASE=6.12 runs tests of the default base"; return 1; }
	[[ $(BASE=6.1 "$S/check.sh" -l) == $(grep -v / <<<"$all") ]] ||
		{ echo "BASE=6.1 does not run the default base's tests only"; return 1; }
}

# The VM tests boot a copy of the kernel under $scratch: `pgrep -f "$scratch/"` then finds only this
# run's QEMU, never another run's on the same machine.
vm_kernel() {
	if [[ ! -f $scratch/kernel/bzImage ]]; then
		mkdir -p "$scratch/kernel"
		cp "$("$S/kernel.sh" HEAD)/bzImage" "$scratch/kernel/bzImage"
	fi
	echo "$scratch/kernel/bzImage"
}

vm() {
	"$S/vm.sh" -k "$(vm_kernel)" -t "${VM_TIMEOUT:-300}" "$@"
}

# our_qemu: the QEMU processes of this check run.
our_qemu() {
	pgrep -f -- "-kernel $scratch/" || true
}

test_vm_returns_exit_status() {
	local out rc=0
	out=$(vm -- 'uname -r; exit 3') || rc=$?
	echo "$out"
	[[ $rc == 3 ]] || { echo "exit status $rc, expected 3"; return 1; }
	grep -q "^${BASE//./\\.}\\." <<<"$out" || { echo "not a $BASE kernel"; return 1; }
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
	expect_fail 'VM timed out after 20s' "$S/vm.sh" -k "$(vm_kernel)" -t 20 -- 'sleep 1000'
	[[ -z $(our_qemu) ]] || { echo "qemu left running: $(our_qemu)"; return 1; }
}

# A guest that prints nothing for -s seconds hangs: reported with its last lines, long before -t.
test_vm_silent_guest_is_a_hang() {
	local t0=$SECONDS
	expect_fail 'VM hangs: no output from the guest for 15s' vm -s 15 -- 'echo last-words; sleep 1000' |
		tee "$scratch/silent.out"
	grep -q 'last-words' "$scratch/silent.out" || { echo "the command's last lines are not shown"; return 1; }
	((SECONDS - t0 < 120)) || { echo "took $((SECONDS - t0))s"; return 1; }
	[[ -z $(our_qemu) ]] || { echo "qemu left running: $(our_qemu)"; return 1; }
}

# A KVM that accepts a stopped VM but never boots a guest (simulated: a QEMU wrapper that hangs
# whenever it is asked for -accel kvm, and a fake /dev/kvm): vm.sh probes by booting the kernel,
# falls back to TCG with one line saying why, and probes once per machine boot.
test_vm_falls_back_to_tcg_when_kvm_hangs() {
	local fake=$scratch/fake-kvm out i
	mkdir -p "$fake/runs"
	: >"$fake/kvm"
	cat >"$fake/qemu-system-x86_64" <<WRAPPER
#!/bin/bash
for a in "\$@"; do
	[[ \$a == kvm ]] && { echo "\$*" >>"$fake/kvm-calls"; exec sleep 1000; }
done
exec $(command -v qemu-system-x86_64) "\$@"
WRAPPER
	chmod +x "$fake/qemu-system-x86_64"
	for i in 1 2; do
		out=$(env -u ACCEL LAB_QEMU="$fake/qemu-system-x86_64" LAB_KVM_DEV="$fake/kvm" LAB_KVM_PROBE_SECS=5 \
			LAB_VM_RUNS="$fake/runs" LAB_KVM_VERDICTS="$fake/runs" "$S/vm.sh" -k "$(vm_kernel)" -t 120 -s 40 -- 'echo guest-ran; exit 0' 2>&1) ||
			{ echo "$out"; echo "run $i failed"; return 1; }
		echo "$out"
		grep -qx guest-ran <<<"$out"
		[[ $(grep -c 'KVM hangs: .*; using TCG' <<<"$out") == 1 ]] || { echo "run $i: no one-line TCG fallback"; return 1; }
	done
	[[ $(wc -l <"$fake/kvm-calls") == 1 ]] || { echo "KVM probed $(wc -l <"$fake/kvm-calls") times, expected once"; return 1; }
}

# Ctrl-C: SIGINT to the whole process group, as a terminal sends it, during a run: no QEMU, no run
# directory left.
test_vm_ctrl_c_leaves_nothing() {
	local runs=$scratch/ctrl-c-runs pid i rc=0
	mkdir -p "$runs"
	LAB_VM_RUNS=$runs setsid "$S/vm.sh" -k "$(vm_kernel)" -t 300 -- 'echo guest-started; sleep 1000' \
		>"$scratch/ctrl-c.out" 2>&1 &
	pid=$!	# setsid runs vm.sh in place: its pid is the process group
	for ((i = 0; i < 120; i++)); do
		grep -q guest-started "$scratch/ctrl-c.out" && break
		sleep 1
	done
	grep -q guest-started "$scratch/ctrl-c.out" || { cat "$scratch/ctrl-c.out"; kill -- -"$pid"; return 1; }
	kill -INT -- -"$pid"
	for ((i = 0; i < 20; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "vm.sh still runs 20s after SIGINT; qemu: $(our_qemu)"
		kill -- -"$pid"
		# shellcheck disable=SC2046 # one word per pid
		kill $(our_qemu) 2>/dev/null
		return 1
	fi
	wait "$pid" || rc=$?
	sleep 1
	echo "vm.sh exit status after SIGINT: $rc"
	if [[ -n $(our_qemu) ]]; then
		echo "qemu left running after Ctrl-C: $(our_qemu)"
		# shellcheck disable=SC2046 # one word per pid
		kill $(our_qemu)
		return 1
	fi
	[[ -z $(ls -A "$runs" | grep -v '^kvm-verdict\.') ]] || { echo "left behind: $(ls -A "$runs")"; return 1; }
	((rc != 0))
}

# Crashes are found in the kernel's messages, not in what the command prints.
test_vm_crash_is_read_from_kernel_messages() {
	local out
	out=$(vm -- 'echo "BUG: printed by the command, not a crash"; echo "Kernel panic - also not"; exit 0') ||
		{ echo "$out"; echo "the command's own output was taken for a crash"; return 1; }
	expect_fail 'the kernel crashed' vm -- 'echo "<2>BUG: planted in the kernel log by check.sh" >/dev/kmsg; exit 0'
	# A KCSAN report is not a crash: check-debug.sh judges it. (It is on the console, vm.sh's stderr.)
	out=$(vm -- 'echo "<3>BUG: KCSAN: data-race in planted_a / planted_b" >/dev/kmsg; exit 0' 2>&1) ||
		{ echo "$out"; echo "a KCSAN report was taken for a crash"; return 1; }
	grep -q 'BUG: KCSAN: data-race in planted_a' <<<"$out" || { echo "$out"; echo "the report is not on the console"; return 1; }
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

# Every knob is checked before anything runs: one line naming the knob and what it allows, no
# step started (no ">>>" line), non-zero exit.
test_knobs_are_checked_before_anything_runs() {
	local knob args want out
	# "make arguments, comma-separated|the line it must print"; timeout: a knob let through must not run a whole bench.
	while IFS='|' read -r knob want; do
		IFS=, read -ra args <<<"$knob"
		out=$(cd "$LAB_ROOT" && timeout 60 env -u ACCEL make -s bench "${args[@]}" 2>&1) &&
			{ echo "make bench $knob passed"; return 1; }
		out=$(grep -vE '^make(\[[0-9]+\])?: \*\*\*' <<<"$out")
		echo "make bench $knob: $out"
		[[ $(wc -l <<<"$out") == 1 && $out == "error: $want"* ]] ||
			{ echo "expected one line 'error: $want...'"; return 1; }
	done <<'KNOBS'
ICOUNT=yes|ICOUNT=yes: expected 0 or 1
CPUS=0|CPUS=0: expected
CPUS=x|CPUS=x: expected
MAXCPUS=256|MAXCPUS=256: expected possible CPUs, 2 (the online CPUs) to 255
MAXCPUS=1|MAXCPUS=1: expected
POSSIBLE=2 256|POSSIBLE=2 256: '256': expected
POSSIBLE=1|POSSIBLE=1: '1': expected
BENCHS=trigger nosuch|BENCHS=trigger nosuch: unknown 'nosuch'
BENCHS=trig-bse|BENCHS=trig-bse: unknown 'trig-bse'
TIMEOUT=10m|TIMEOUT=10m: expected a positive number of seconds
SILENCE=-1|SILENCE=-1: expected
MEM=2GB|MEM=2GB: expected a size like 512M or 2G
ACCEL=xen|ACCEL=xen: expected kvm, tcg
ICOUNT=1,CPUS=2|CPUS=2: ICOUNT=1 runs one online CPU
BASE=6.13|BASE=6.13: expected one of: 6.1 6.12
BASE=../6.1|BASE=../6.1: expected one of: 6.1 6.12
BASE=6.12,BENCHS=trig-base|BENCHS=trig-base: unknown 'trig-base'
KNOBS
	# And vm.sh on its own, as compare.sh and check-debug.sh start it.
	expect_fail '^error: ICOUNT=yes: expected 0 or 1$' env ICOUNT=yes "$S/vm.sh" -- true
}

# make vm: a REV that is not a commit fails with one line and boots nothing; CMD reaches the
# guest unexpanded ($HOME is the guest's, quotes survive).
test_make_vm_rev_and_cmd() {
	local out cmd
	expect_fail "^error: no commit 'no-such-rev' in " make -s -C "$LAB_ROOT" vm REV=no-such-rev CMD='echo booted'
	cmd=$(cat <<'CMD'
x=1; echo "home=$HOME x=$x" "it's" '$x' $(echo sub)
CMD
	)
	out=$(make -s -C "$LAB_ROOT" vm CMD="$cmd" 2>/dev/null)
	echo "$out"
	grep -qxF "home=$HOME x=1 it's \$x sub" <<<"$out"
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
	for b in $GETPGID_BENCHS; do
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
	for t in $BENCH_TESTS; do
		BENCH=$bench_dir/bench "$bench_tests/test_bench_$t.sh"
	done
	# the rest of htab-mem needs cgroup v2 with memcg, which this host may lack: see below
	[[ $SERIES_HTAB_MEM != 1 ]] || "$S/test-htab-mem.sh" -b "$bench_dir" options
}

# The same tests on the series' kernel, where htab-mem must run. (Not the counters test: under
# strace a TCG guest makes too few calls to compare.)
test_vm_bench_harness_tests() {
	local bench_dir t cmd=""
	bench_dir=$("$S/bench-build.sh" HEAD)
	for t in $BENCH_TESTS; do
		cmd+="BENCH=$bench_dir/bench $bench_tests/test_bench_$t.sh && "
	done
	vm -- "${cmd}true"
}

# make bench runs the base's registry in the VM: the lab's scripts in the guest must get BASE too
# (vm.sh passes it; without it make bench BASE=6.12 ran 6.1's trigger rows, and failed trig-base).
test_vm_bench_runs_the_base_registry() {
	local name out
	name=$(awk '$1 !~ /^#/ && NF { print $2; exit }' "$BASE_CONFIG/benchmarks")
	out=$(BENCHS=$name "$S/bench.sh" 2>&1) || { echo "$out" | tail -n 20; return 1; }
	echo "$out" | grep "^lab-result: $name " || { echo "$out" | tail -n 20; echo "no result for $name"; return 1; }
}

# htab-mem in the VM, in a mount namespace of its own: outcomes and memory of every use case, and
# nothing left in the mounts or the cgroup hierarchy after a normal exit, SIGTERM, SIGKILL,
# SIGPIPE (`| head -1`) or a run that had to mount cgroup2 itself.
test_vm_htab_mem_leaves_nothing_behind() {
	local bench_dir
	bench_dir=$("$S/bench-build.sh" HEAD)
	VM_TIMEOUT=${VM_TIMEOUT:-600} vm -c 2 -- "unshare -m --propagation private $S/test-htab-mem.sh -b $bench_dir"
}

# make host-bench on a host without tracefs mounted (simulated: unmounted in a private mount
# namespace) mounts it where only the suite sees it, runs trig-tp and exits 0; the host's
# mounts are the same afterwards.
test_host_bench_without_tracefs() {
	local out before
	before=$(findmnt -rn -o TARGET | sort)
	out=$(unshare -m --propagation private bash -c '
		umount -l /sys/kernel/tracing 2>/dev/null; umount -l /sys/kernel/debug 2>/dev/null
		[[ ! -e /sys/kernel/tracing/events ]] || exit 99
		BENCHS=trig-tp "$1/bench.sh" -H' - "$S" 2>&1) || { echo "$out"; echo "host-bench failed"; return 1; }
	echo "$out"
	grep -q '^lab-result: trig-tp ' <<<"$out"
	[[ $(findmnt -rn -o TARGET | sort) == "$before" ]] || { echo "the host's mounts changed"; return 1; }
}

# What README and Documentation/lab.md say about the lab is true: each statement checked here
# against the scripts, or against the command that produced its number.
test_docs_match_the_lab() {
	local readme=$LAB_ROOT/README.md lab=$LAB_ROOT/Documentation/lab.md spread
	spread=$("$S/compare/spread.py" "$LAB_ROOT"/Documentation/results/*/trials.csv | sed -n 's/^icount: .*median \([0-9.]*%\), 90th percentile \([0-9.]*%\), max \([0-9.]*%\)$/\1 \2 \3/p')
	echo "icount spread (median, 90th percentile, max): $spread"
	read -r median p90 max <<<"$spread"
	for f in "$readme" "$lab"; do
		tr '\n' ' ' <"$f" | grep -q "$median at the median, $p90 at the 90th percentile and $max" ||
			{ echo "$f does not give the icount spread as $spread"; return 1; }
	done
	tr '\n' ' ' <"$readme" | grep -q "$VM_TIMEOUT for \`make vm\`, $BENCH_TIMEOUT for \`make bench\`" ||
		{ echo "README: TIMEOUT defaults are config/vm.conf's $VM_TIMEOUT and $BENCH_TIMEOUT"; return 1; }
	grep -q "exit 3'.*vm.sh exits 3, so make fails (exit 2)" "$readme" ||
		{ echo "README: make vm CMD='... exit 3' makes make exit 2"; return 1; }
	! grep -q 'edit, build with `make kernel`' "$readme" ||
		{ echo "README: make kernel builds commits, not edits"; return 1; }
	for f in "$LAB_ROOT"/config/*/base.conf; do
		if grep -qi 'included by the Makefile' "$f"; then
			grep -q '^include.*base.conf' "$LAB_ROOT/Makefile" || { echo "$f: the Makefile does not include it"; return 1; }
		fi
	done
	! grep -q 'within 0.5%\|about 0.1%' "$readme" "$lab" || { echo "an unmeasured repeatability figure"; return 1; }
}

test_compare_statistics() {
	/usr/bin/python3 "$S/compare/test_stats.py" -v
}

test_freelist_harness() {
	"$LAB_ROOT/tools/testing/pcpu_freelist/run.sh"
	# The multi-threaded benchmark, briefly: that it runs, not what it measures.
	PFL_MT_REPS=1 PFL_MT_MS=20 "$LAB_ROOT/tools/testing/pcpu_freelist/run.sh" mt base series freelist-bitmap-v1
}

test_regress_results() {
	cd "$S" && /usr/bin/python3 test_regress_results.py -v
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

# Every entry of a DENYLIST names its reason, as upstream's do: `test[/subtest]  # reason`; so does
# every selftests file a base cannot build (config/<base>/selftests-unbuildable).
test_regress_denylists_give_reasons() {
	lists_give_reasons '[^#[:space:]]+' "$LAB_ROOT"/config/*/DENYLIST* "$LAB_ROOT"/config/*/selftests-unbuildable
}

# check-debug fails on a splat unless config/<base>/known-splats names it as the base's, with its
# reason: the base's percpu_counter race is known, another race or a lockdep report is not. The
# splats are read from a VM run's log as check-debug reads them (log_splats): from the console and
# from the guest's `grep -n` of dmesg, each once, and only kernel messages.
test_known_splats() {
	local bad=0 got want
	# an entry is the text of a splat's first line: spaces, no `#`
	lists_give_reasons '[^#]*[^#[:space:]]' "$LAB_ROOT"/config/*/known-splats || bad=1
	printf '%s\r\n' '[   22.400000] BUG: KCSAN: data-race in __percpu_counter_compare / percpu_counter_add_batch' \
		'[   23.000000] BUG: KCSAN: data-race in pcpu_freelist_pop / pcpu_freelist_push' >"$scratch/log"
	cat >>"$scratch/log" <<'EOF'
BUG: printed by the command, not a kernel message
--- dmesg splats ---
279:[   22.400000] BUG: KCSAN: data-race in __percpu_counter_compare / percpu_counter_add_batch
280-[   22.500000] read to 0xffff888101fab408 of 8 bytes by task 92 on cpu 0:
300:[   23.000000] BUG: KCSAN: data-race in pcpu_freelist_pop / pcpu_freelist_push
310:[   24.000000] WARNING: possible circular locking dependency detected
--- end ---
[   25.000000] BUG: sleeping function called from invalid context at mm/slab.h:723
EOF
	got=$(log_splats "$scratch/log" | unknown_splats "$LAB_ROOT/config/6.1/known-splats" | paste -sd'|')
	want='[   23.000000] BUG: KCSAN: data-race in pcpu_freelist_pop / pcpu_freelist_push|[   24.000000] WARNING: possible circular locking dependency detected|[   25.000000] BUG: sleeping function called from invalid context at mm/slab.h:723'
	echo "unknown: $got"
	[[ $got == "$want" ]] || { echo "expected: $want"; bad=1; }
	got=$(log_splats "$scratch/log" | wc -l)
	echo "splats: $got"
	((got == 4)) || { echo "expected 4 splats, each once"; bad=1; }
	((bad == 0))
}

# kernel.sh -c regress names the options the selftests' config asks for and does not get
# (config_dropped): the last request of an option set twice counts, "not set" is also a value.
test_regress_config_drops() {
	local got want
	printf '%s\n' CONFIG_TWICE=y CONFIG_LOST=y CONFIG_CHOICE_A=y '# CONFIG_OFF is not set' CONFIG_MOD=m \
		CONFIG_STR='"a"' >"$scratch/config"
	printf '%s\n' CONFIG_TWICE=y '# CONFIG_CHOICE_A is not set' CONFIG_CHOICE_B=y CONFIG_GONE=y \
		>"$scratch/config.x86_64"
	printf '%s\n' CONFIG_TWICE=y '# CONFIG_LOST is not set' CONFIG_CHOICE_B=y CONFIG_MOD=y \
		CONFIG_STR='"b"' >"$scratch/.config"
	got=$(config_dropped "$scratch/.config" "$scratch/config" "$scratch/config.x86_64" | paste -sd' ')
	want='CONFIG_GONE CONFIG_LOST CONFIG_MOD CONFIG_STR'
	echo "dropped: $got"
	[[ $got == "$want" ]] || { echo "expected: $want"; return 1; }
}

# CI's share of make regress: the series' kernel, built from the selftests' own config, runs
# test_verifier and the test_progs tests of the code the series touches (config/ALLOWLIST) in the
# VM, and nothing that passes in the base's recorded full run fails (test_maps takes 18 minutes
# here: make regress runs it).
test_vm_regress_touched() {
	"$S/regress.sh" -B "$LAB_ROOT/Documentation/results/regress-$BASE/base" -o "$scratch/regress" \
		-a "$(list_entries "$LAB_ROOT/config/ALLOWLIST" | paste -sd,)" test_progs test_verifier
}

# A freelist that loses a node now and then (lab/plants/freelist-lossy-pop.patch, on the series)
# is a regression that make regress names, against the series' recorded test_maps: test_maps fills
# preallocated hash maps to the last element.
test_vm_regress_catches_a_lossy_freelist() {
	local out rc=0
	out=$("$S/regress.sh" -b HEAD -B "$LAB_ROOT/Documentation/results/regress-$BASE/series" -o "$scratch/plant" \
		-p "$LAB_ROOT/lab/plants/freelist-lossy-pop.patch" test_maps 2>&1) || rc=$?
	echo "$out"
	((rc == 1)) && grep -q '^REGRESSION: test_maps: test_maps: base OK, series ' <<<"$out"
}

# The tests of a series, which run on every base: its tree is made first (as for the default base:
# on an empty cache the tests after it need the tree), the series applies and round-trips, passes
# its gates, its kernel and bench build, boot and run its benchmarks, and the harness runs on its
# freelist. The other tests are of the lab itself, and of the 6.1 series' own patches.
base_tests=(tree series_applies_to_pristine_base series_round_trip_is_exact mbox_applies_with_git_am
	mbox_applies_with_b4_am series_quality_gates kernel_builds bench_builds vm_returns_exit_status
	vm_has_possible_cpus vm_attaches_fentry_program trigger_producers_make_equal_syscalls
	bench_options_and_outcomes_on_host vm_bench_harness_tests vm_bench_runs_the_base_registry
	freelist_harness)
other_bases=$(lab_bases | grep -vxF "$default_base" || true)

# declare -F sorts by name; run in the order of this file instead.
mapfile -t file_tests < <(grep -oE '^test_[a-z_0-9]+' "$0" | cut -c6-)
tests=()
if [[ -z $requested_base || $requested_base == "$default_base" ]]; then
	tests=("${file_tests[@]}")
fi
for b in $other_bases; do
	[[ -z $requested_base || $requested_base == "$b" ]] || continue
	tests+=("${base_tests[@]/#/$b/}")
done
if [[ ${1:-} == -l ]]; then
	printf '%s\n' "${tests[@]}"
	exit 0
fi
(($#)) && tests=("$@")

passed=0 failed=0 skipped=0 n=0 start=$SECONDS
for t in "${tests[@]}"; do
	declare -F "test_${t#*/}" >/dev/null || die "no test '$t' (scripts/check.sh -l lists them)"
	[[ $t != */* ]] || lab_bases | grep -qxF "${t%%/*}" || die "no base '${t%%/*}' in '$t' (bases: $(lab_bases | xargs))"
done
for t in "${tests[@]}"; do
	t0=$SECONDS
	n=$((n + 1))
	echo ">>> $t ..." >&2
	rm -f "$skip_file"
	log=$top_scratch/${t//\//-}.log
	# Not in an if: errexit must stay active inside the test's subshell.
	set +e
	(
		set -e
		[[ $t != */* ]] || use_base "${t%%/*}"
		"test_${t#*/}"
	) >"$log" 2>&1
	rc=$?
	set -e
	if ((rc == 0)); then
		echo "ok $n $t ($((SECONDS - t0))s)"
		passed=$((passed + 1))
	elif ((rc == SKIP)) && [[ -f $skip_file ]]; then
		echo "ok $n $t # SKIP $(cat "$skip_file")"
		skipped=$((skipped + 1))
	else
		echo "not ok $n $t ($((SECONDS - t0))s), last lines of its log:"
		tail -n 25 "$log" | sed 's/^/     | /'
		failed=$((failed + 1))
	fi
done
echo "check took $((SECONDS - start))s"
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
