#!/bin/bash
# scripts/plant.sh NAME COMMAND runs COMMAND in the VM on the kernel of the series with
# lab/plants/NAME.patch applied through patched_commit, from the directory of that commit's
# selftests; a plant in mail form (git am) and a plain diff (prose, then the diff, as the harness's
# plants are) both apply; "none" runs the series as it is; an unknown plant is one line. On a
# scratch copy of the lab whose tree.sh, kernel.sh, bench-build.sh and vm.sh are fakes (kernel.sh
# prints the file the plant changes, vm.sh runs the command line with bash on the host).
# Plant: patched_commit applying every patch with git am (a plain diff then does not apply).
# Plant command: sed -i "s/^\t\tif grep -qm1 '^Subject: ' \"\$2\"; then$/\t\tif true; then/" scripts/lib/patches.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# fake_lab DIR: a copy of the lab's scripts and config in DIR with fakes for what builds or boots,
# a tree of one commit (tagged as the base) with kernel/bpf/f.c, and two plants of f.c
fake_lab() {
	local lab=$1 f
	mkdir -p "$lab/lab/plants" "$lab/selftests" "$lab/cache/$BASE"
	cp -a "$LAB_ROOT/scripts" "$LAB_ROOT/config" "$lab/"
	printf '#!/bin/bash\nexit 0\n' >"$lab/scripts/tree.sh"
	# kernel.sh [-c CONFIG] COMMIT: the "kernel" is the planted file's content at COMMIT
	# shellcheck disable=SC2016 # the fakes' own variables
	printf '#!/bin/bash\n[[ $1 == -c ]] && shift 2\necho "kernel:$(git -C "$LAB_TREE" show "$1:kernel/bpf/f.c" | tr "\\n" " ")"\n' >"$lab/scripts/kernel.sh"
	printf '#!/bin/bash\necho %q\n' "$lab/selftests" >"$lab/scripts/bench-build.sh"
	# vm.sh -k KERNEL [-t S] -- COMMAND-LINE: the kernel, then the command line run by bash
	# shellcheck disable=SC2016 # the fake's own "$@"
	printf '#!/bin/bash\necho "booted ${2}"\nexec bash -c "${@: -1}"\n' >"$lab/scripts/vm.sh"
	chmod +x "$lab/scripts/"*.sh
	git init -q "$lab/tree"
	mkdir -p "$lab/tree/kernel/bpf"
	printf 'pop\nlock\nrecheck\n' >"$lab/tree/kernel/bpf/f.c"
	git -C "$lab/tree" add -A
	git -C "$lab/tree" -c user.name=lab -c user.email=lab@localhost commit -q -m base
	git -C "$lab/tree" tag lab-base
	# a plain diff, as lab/plants/freelist-v4-*.patch are, and a patch in mail form
	printf 'PLANT: the recheck dropped.\n--- a/kernel/bpf/f.c\t2026-12-01 00:00:00\n+++ b/kernel/bpf/f.c\t2026-12-01 00:00:00\n@@ -1,3 +1,2 @@\n pop\n lock\n-recheck\n' >"$lab/lab/plants/no-recheck.patch"
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nFrom: lab <lab@localhost>\nDate: Tue, 1 Dec 2026 00:00:00 +0000\nSubject: [PATCH] PLANT: no lock\n\n---\n kernel/bpf/f.c | 1 -\n\ndiff --git a/kernel/bpf/f.c b/kernel/bpf/f.c\n--- a/kernel/bpf/f.c\n+++ b/kernel/bpf/f.c\n@@ -1,3 +1,2 @@\n pop\n-lock\n recheck\n-- \n2.39.5\n\n' >"$lab/lab/plants/no-lock.patch"
}

plant_runs_on_the_planted_kernel() {
	local lab=$scratch/lab out
	fake_lab "$lab"
	export LAB_CACHE=$lab/cache LAB_TREE=$lab/tree GIT_AUTHOR_NAME=lab GIT_AUTHOR_EMAIL=lab@localhost \
		GIT_COMMITTER_NAME=lab GIT_COMMITTER_EMAIL=lab@localhost
	for name in no-recheck no-lock none; do
		out=$("$lab/scripts/plant.sh" "$name" 'pwd; echo ran' 2>&1) ||
			{ echo "$out"; echo "plant.sh $name failed"; return 1; }
		echo "$name: $(grep -v '^>>>' <<<"$out" | xargs)"
		if ! grep -qx "ran" <<<"$out" || ! grep -qx "$lab/selftests" <<<"$out"; then
			echo "$name: the command did not run from the selftests' directory"
			return 1
		fi
	done
	grep -q "booted kernel:pop lock $" <<<"$("$lab/scripts/plant.sh" no-recheck true 2>&1)" ||
		{ echo "no-recheck: not the planted kernel"; return 1; }
	grep -q "booted kernel:pop recheck $" <<<"$("$lab/scripts/plant.sh" no-lock true 2>&1)" ||
		{ echo "no-lock: not the planted kernel"; return 1; }
	grep -q "booted kernel:pop lock recheck $" <<<"$("$lab/scripts/plant.sh" none true 2>&1)" ||
		{ echo "none: not the series' kernel"; return 1; }
	expect_fail "no plant 'no-such'" "$lab/scripts/plant.sh" no-such true
}

run_test plant_runs_on_the_planted_kernel "$@"
