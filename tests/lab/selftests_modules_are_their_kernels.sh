#!/bin/bash
# The debug and the regress selftests of one commit are built one after the other in one
# worktree, against two kernels; each directory's test modules (bpf_testmod.ko and the others)
# must be its own kernel's, or the kernel refuses them and every test that needs one fails
# (6.12's series regress lost 39 test_progs tests so: "section size must match the kernel's built
# struct module size"). Builds both afresh (about 20 minutes).
# Plant: bench-build.sh without its fresh start of the modules for another kernel, nor its check.
# Plant command: sed -i 's/^\tif \[\[ \$(cat "\$src.kernel" 2>\/dev\/null) != "\$config \$kernel" \]\]; then$/\tif false; then/; s/^\t\[\[ -z \$bad \]\] ||/\ttrue ||/' scripts/bench-build.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

selftests_modules_are_their_kernels() {
	local head c dir release m v bad=0
	"$S/tree.sh" >/dev/null
	head=$(tree_head)
	for c in debug regress; do
		rm -rf "$("$S/bench-build.sh" -n -c "$c" "$head" test_progs)"
	done
	for c in debug regress; do
		dir=$("$S/bench-build.sh" -c "$c" "$head" test_progs test_maps) || return 1
		release=$(cat "$BASE_CACHE/obj/$c/include/config/kernel.release")
		while read -r m; do
			v=$(modinfo -F vermagic "$m")
			echo "-c $c: ${m#"$dir"/}: $v"
			[[ ${v%% *} == "$release" ]] || { echo "# not the $c kernel's ($release)"; bad=1; }
		done < <(find "$dir" -name '*.ko' | sort)
	done
	((!bad))
}

run_test selftests_modules_are_their_kernels "$@"
