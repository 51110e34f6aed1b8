#!/bin/bash
# The debug and the regress selftests of one commit are built one after the other in one
# worktree, against two kernels; each directory's test modules (bpf_testmod.ko and the others, and
# the copies in each test_progs flavour's directory) must be its own kernel's, or the kernel
# refuses them and every test that needs one fails (6.12's series regress lost 39 test_progs tests
# so: "section size must match the kernel's built struct module size"). A directory built for
# fewer suites (check-debug's two) must not be taken for one of all four (make regress's).
# Builds both afresh, the regress one first for two suites, then for four (minutes: the worktree's
# objects are reused).
# Plant: bench-build.sh without its fresh start of the modules for another kernel, nor its check.
# Plant command: sed -i 's/^\tif \[\[ \$(cat "\$src.kernel" 2>\/dev\/null) != "\$config \$kernel" \]\]; then$/\tif false; then/; s/^\t\[\[ -z \$bad \]\] ||/\ttrue ||/' scripts/bench-build.sh
# Plant: bench-build.sh taking any directory with a test_progs for a cached one, as before.
# Plant command: sed -i 's/^\tbuilt "\$out" || ((name_only))/\t[[ -x $out\/test_progs ]] || ((name_only))/' scripts/bench-build.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

selftests_modules_are_their_kernels() {
	local head c dir release m v t bad=0
	# the tree's lock for the whole test: a make regress of this base runs from the directory
	# the test deletes, and holds the lock until it ends
	lock_tree
	"$S/tree.sh" >/dev/null
	head=$(tree_head)
	for c in debug regress; do
		rm -rf "$("$S/bench-build.sh" -n -c "$c" "$head" test_progs)"
	done
	"$S/bench-build.sh" -c debug "$head" test_progs test_maps >/dev/null || return 1
	"$S/bench-build.sh" -c regress "$head" test_progs test_maps >/dev/null || return 1
	for c in debug regress; do
		t="test_progs test_maps"
		[[ $c == debug ]] || t="test_progs test_progs-no_alu32 test_maps test_verifier"
		# shellcheck disable=SC2086 # a list of targets
		dir=$("$S/bench-build.sh" -c "$c" "$head" $t) || return 1
		release=$(cat "$(kernel_obj "$c")/include/config/kernel.release")
		[[ $c == debug || -e $dir/no_alu32/bpf_testmod.ko ]] ||
			{ echo "-c $c: no_alu32/bpf_testmod.ko missing"; bad=1; }
		while read -r m; do
			v=$(modinfo -F vermagic "$m")
			echo "-c $c: ${m#"$dir"/}: $v"
			[[ ${v%% *} == "$release" ]] || { echo "# not the $c kernel's ($release)"; bad=1; }
		done < <(find "$dir" -name '*.ko' | sort)
	done
	((!bad))
}

run_test selftests_modules_are_their_kernels "$@"
