#!/bin/bash
# A patch that does not apply is named, with the file it fails on (apply-series.sh, which tree.sh,
# mbox.sh and the tests use).
# Plant: apply-series.sh saying only that git am failed, not which patch and file.
# Plant command: sed -i 's/die "patch \$(basename "\$p") does not apply: \${file:-unknown reason}"/die "git am failed"/' scripts/apply-series.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

broken_patch_is_named() {
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

run_test broken_patch_is_named "$@"
