#!/bin/bash
# The W=1 and sparse gates fail when they cannot check: sparse missing, or make failing for any
# reason (an empty warning list must mean "no warning"). gates.sh shows tree.sh's own error, once.
# Plant: the sparse gate not checking that sparse exists (an empty warning list then means "not checked").
# Plant command: sed -i 's/&& ! command -v "\$sparse" >\/dev\/null; then/\&\& false; then/' scripts/gates.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

gates_fail_when_they_cannot_check() {
	local c stub=$scratch/stub-lab
	c=$(git -C "$TREE" log --format=%H -n1 "$BASE_TAG..$(tree_head)" -- '*.c' ':!tools')
	[[ -n $c ]] || { echo "no commit of the series touches kernel C files"; return 1; }
	# shellcheck disable=SC2016 # the inner bash expands $1 and $2
	expect_fail 'nonexistent-sparse not found' env LAB_SPARSE=/nonexistent-sparse \
		bash -c '. "$1/gates.sh"; no_new_warnings "$2" C=2' - "$S" "$c"
	# make failing for another reason, without a build: a make that fails at once (and no
	# checkout in the shared build worktree).
	# shellcheck disable=SC2016 # the inner bash expands $1 and $2
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

run_test gates_fail_when_they_cannot_check "$@"
