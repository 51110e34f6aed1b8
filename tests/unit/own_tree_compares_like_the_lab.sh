#!/bin/bash
# make compare on TREE=, a clone of the lab's tree with the series as a branch, runs what it runs on
# the lab's tree: make -n compare shows the same trials (the same kernels, bench, VM, guest
# command, labels and files) on the same commits, the lab's lab-base and HEAD; and the command it
# writes into README.md (and a record) is the lab's with the tree and its revisions as commits in
# front (TREE=... BASE_REV=... SERIES_REV=...), so that it measures those commits again. Without
# them it was BASE=<base>'s command word for word: run again, it measured the lab's tree.
# Plant: the command without TREE= and its revisions.
# Plant command: sed -i 's/$(own_tree_knobs)BASE=/BASE=/' scripts/compare/compare.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# dry_compare ENV...: make -n compare of one benchmark, 1 trial, icount, 2 possible CPUs, with ENV
dry_compare() {
	(cd "$LAB_ROOT" && env "$@" make -s -n compare TRIALS=1 CLOCKS=icount VARIANTS='base series' \
		POSSIBLE=2 BENCHS=full-update-full 2>&1)
}

# trials: a dry run's trial lines, each commit as C (the lab's dry run shows its stand-ins, TREE='s
# the commits it resolved), quotes, the run's time and its results directory's time stamp left
# out; the notes and the record aside
trials() {
	# shellcheck disable=SC2016 # the lab's stand-ins, $NAME, as the dry run prints them
	grep -v -e '^>>> command' -e '^>>> dry run' -e 'records write' |
		sed -E -e 's/\$\(commit_of ([^)]*)\)/C  # commit_of \1/' -e 's/  # (commit_of [^,]*), TREE=.*/  # \1/' \
			-e 's/[0-9a-f]{40}|\$(bench_commit_[0-9]+|kernel_commit)/C/g' -e "s/[\"']//g" -e 's/date=[0-9TZ:-]+/date=D/' \
			-e 's#/results/compare/[0-9-]+(/| |$)#/results/compare/R\1#g'
}

own_tree_compares_like_the_lab() {
	local t=$scratch/linux lab=$scratch/lab base series lab_out own_out lab_trials own_trials lab_cmd own_cmd want line
	export LAB_CACHE=$scratch/cache
	own_tree "$t" 7 3
	base=$(git -C "$t" rev-parse upstream) series=$(git -C "$t" rev-parse main)
	# the lab's own tree: lab-base, then the series (make tree's shape), of the same commits
	git clone -q "$t" "$lab"
	git -C "$lab" tag lab-base "$base"
	lab_out=$(dry_compare BASE=7.3 RECORD=1 LAB_TREE="$lab") || { echo "$lab_out"; return 1; }
	own_out=$(dry_compare BASE=7.3 TREE="$t") || { echo "$own_out"; return 1; }
	# the same commits: lab-base is the base, HEAD the series and the bench
	for line in "kernel_commit=$base  # commit_of base," "kernel_commit=$series  # commit_of series," \
		"bench_commit_1=$series  # commit_of HEAD,"; do
		grep -qF -- "+ $line" <<<"$own_out" || { echo "$own_out"; echo "TREE=: no '+ $line'"; return 1; }
	done
	lab_trials=$(trials <<<"$lab_out") own_trials=$(trials <<<"$own_out")
	[[ $(grep -c '^+ scripts/vm.sh' <<<"$lab_trials") == 2 ]] || { echo "$lab_out"; echo "not 2 trials"; return 1; }
	diff <(echo "$lab_trials") <(echo "$own_trials") || { echo "TREE='s trials are not the lab's"; return 1; }
	echo "the same $(grep -c '^+ scripts/vm.sh' <<<"$own_out") trials on base ${base:0:12} and series ${series:0:12}"
	lab_cmd=$(sed -n 's/^>>> command (README.md.s, the record.s): //p' <<<"$lab_out")
	own_cmd=$(sed -n 's/^>>> command (README.md.s, the record.s): //p' <<<"$own_out")
	[[ -n $lab_cmd ]] || { echo "$lab_out"; echo "no command in the lab's dry run"; return 1; }
	grep -F 'records write' <<<"$lab_out" | grep -qF -- "--command \"$lab_cmd\"" ||
		{ echo "$lab_out"; echo "the record's command is not README.md's"; return 1; }
	echo "BASE=7.3: $lab_cmd"
	echo "TREE=:    $own_cmd"
	want="TREE=$t BASE_REV=$base SERIES_REV=$series $lab_cmd"
	[[ $own_cmd == "$want" ]] || { echo "expected: $want"; return 1; }
}

run_test own_tree_compares_like_the_lab "$@"
