#!/bin/bash
# The lab's builds run make as a top-level make even under `make check-debug`: with an inherited
# MAKELEVEL, an older base's selftests Makefile leaves OUTPUT empty and the in-tree test_progs build looks
# for its files under / (a dry run of urandom_read shows the include path it would use).
# Plant: lab_make as plain make, inheriting MAKELEVEL under make check-debug.
# Plant command: sed -i 's/env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u LLVM make "\$@"/make "$@"/' scripts/lib/procs.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

builds_run_make_at_top_level() {
	local sel=$scratch/src/tools/testing/selftests/bpf out f
	for f in kernel.sh bench-build.sh gates.sh tree.sh; do
		# shellcheck disable=SC2016 # a literal $( in the pattern: make after a command substitution
		! grep -nE '^[^#]*(^|[[:space:]$(])make -' "$S/$f" || { echo "$f runs make without lab_make"; return 1; }
	done
	# In a copy of the tree's tools/: even make -n runs the feature checks that the selftests
	# Makefile includes (7.3's test-llvm), and they write into the source directory.
	mkdir -p "$scratch/src"
	git -C "$TREE" archive HEAD tools | tar -x -C "$scratch/src"
	out=$(MAKELEVEL=1 MAKEFLAGS=s bash -c '. "$1/lib.sh"; lab_make -n -C "$2" urandom_read' - "$S" "$sel" 2>&1 |
		grep -m1 -- '-I') || true
	echo "${out:0:300}"
	grep -qF -- "-I$sel/tools/include" <<<"$out" || { echo "selftests make under MAKELEVEL=1 has OUTPUT empty"; return 1; }
}

run_test builds_run_make_at_top_level "$@"
