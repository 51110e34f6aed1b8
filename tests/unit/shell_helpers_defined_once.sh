#!/bin/bash
# Each shell helper has one definition: no function name is defined by two of the lab's libraries
# (the .sh files that are sourced, not run: not executable), and no script defines again a function
# that a library defines. Two KTAP libraries once defined skip, ktap_finished and bad_option each
# their own way, and scripts/test-htab-mem.sh, which sourced both, ended up with three bad_option.
# (Top-level definitions only: a test's stand-in of a helper, inside a bash -c, is indented.)
# Plant: a script defines a helper of the libraries again, as test-htab-mem.sh did bad_option.
# Plant command: printf 'bad_option() {\n\t:\n}\n' >>tests/bench/test_bench_htab_mem.sh
# Plant: the bench tests' library defines a KTAP helper of its own again.
# Plant command: printf 'ktap_finished() {\n\texit 0\n}\n' >>tests/bench/lib.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# defined FILE...: "NAME FILE" for each function defined at the top level of the files
defined() {
	local f
	for f in "$@"; do
		sed -nE 's/^([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\(\)[[:space:]]*(\{.*)?$/\1/p' "$f" | sed "s|\$| ${f#"$LAB_ROOT"/}|"
	done
}

shell_helpers_defined_once() {
	local -a libs scripts
	local twice again
	mapfile -t libs < <(find "$LAB_ROOT/scripts" "$LAB_ROOT/tests" "$LAB_ROOT/lab" "$LAB_ROOT/tools" \
		-name '*.sh' -type f ! -perm -u+x | sort)
	# a script that stands alone (sources none of the lab's libraries, as tools/testing/bpf_lru_list's
	# run.sh) may define its own die()
	mapfile -t scripts < <(find "$LAB_ROOT/scripts" "$LAB_ROOT/tests" "$LAB_ROOT/lab" "$LAB_ROOT/tools" \
		-name '*.sh' -type f -perm -u+x -exec grep -lE '^[[:space:]]*(\.|source) .*lib[^ ]*\.sh' {} + | sort)
	echo "${#libs[@]} libraries: $(printf '%s\n' "${libs[@]#"$LAB_ROOT"/}" | xargs)"
	((${#libs[@]} >= 3)) || { echo "expected scripts/lib.sh, tests/lib.sh and tests/ktap.sh at least"; return 1; }
	twice=$(defined "${libs[@]}" | awk '{ n[$1]++; w[$1] = w[$1] " " $2 } END { for (k in n) if (n[k] > 1) print k ":" w[k] }' | sort)
	[[ -z $twice ]] || { echo "defined by two libraries:"; echo "$twice"; }
	again=$(awk 'NR == FNR { lib[$1] = $2; next } $1 in lib { print $2 ": " $1 "() again (" lib[$1] ")" }' \
		<(defined "${libs[@]}") <(defined "${scripts[@]}"))
	[[ -z $again ]] || { echo "a library's function defined again:"; echo "$again"; }
	[[ -z $twice && -z $again ]]
}

run_test shell_helpers_defined_once "$@"
