#!/bin/bash
# Each target makes the tree once (scripts/tree.sh): as a prerequisite (make tree) for the targets
# that build one commit (kernel, bench-build, vm), as the pipeline's first stage (stage_tree) for
# those that measure, whose scripts start measure.sh once or many times (compare: a run per
# variant, then one a trial). It ran twice a target (the prerequisite, then the stage), and once
# more a measure.sh of compare and nmi. On a scratch copy of the lab whose tree.sh notes each run
# and whose other builds and vm.sh are fakes: make bench and make compare (one trial) as they run,
# and every such target as a dry run, whose "+ scripts/tree.sh" lines count.
# Plant: make bench with the tree as a prerequisite again, besides the pipeline's stage.
# Plant command: sed -i 's/^bench: deps$/bench: tree/' Makefile
# Plant: the pipeline's stage made again by each measure.sh that a command starts.
# Plant command: sed -i '/^\t\[\[ \${LAB_TREE_STAGED:-} != "\$TREE" \]\] || return 0$/d' scripts/lib/pipeline.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# fake_lab DIR: a copy of the lab in DIR whose tree.sh notes each run in DIR/tree-runs, and whose
# builds give a bench that prints a Summary line and whose vm.sh runs the guest's command line
fake_lab() {
	local lab=$1
	fake_lab_copy "$lab"
	git -C "$lab/tree" -c user.name=lab -c user.email=lab@localhost commit -q --allow-empty -m series
	printf '#!/bin/bash\necho run >>%q\n' "$lab/tree-runs" >"$lab/scripts/tree.sh"
	mkdir -p "$lab/bench-out/benchs"
	printf '#!/bin/sh\necho "Setting up benchmark '\''fake'\''..."\necho "Summary: hits    9.329 \\302\\261 0.142M/s (  9.329M/prod), drops    0.000 \\302\\261 0.000M/s"\n' >"$lab/bench-out/bench"
	printf '#!/bin/bash\necho %q\n' "$lab/bench-out" >"$lab/scripts/bench-build.sh"
	printf '#!/bin/bash\necho %q\n' "$lab/kernel" >"$lab/scripts/kernel.sh"
	# shellcheck disable=SC2016 # the fake's own "$@"
	printf '#!/bin/bash\nexec bash -c "${@: -1}"\n' >"$lab/scripts/vm.sh"
	chmod +x "$lab/scripts/"*.sh "$lab/bench-out/bench"
}

tree_made_once_a_target() {
	local lab=$scratch/lab name target runs printed bad=0
	local -a targets=(
		'bench' 'host-bench' 'compare TRIALS=1 CLOCKS=icount' 'scaling' 'check-debug' 'nmi'
		'regress VMS=1 SUITES=test_maps' "vm-bench CMD=true" 'kernel' 'bench-build' 'vm CMD=true'
	)
	fake_lab "$lab"
	export LAB_CACHE=$lab/cache LAB_TREE=$lab/tree
	read -r _ name _ < <(registry_select vm | head -n1)
	# as they run: make bench, and make compare (a measure.sh per variant, then one a trial)
	for target in "bench BENCHS=$name" "compare TRIALS=1 CLOCKS=icount BENCHS=$name"; do
		rm -f "$lab/tree-runs"
		# shellcheck disable=SC2086 # the target and its knobs, words
		(cd "$lab" && env -u MAKEFLAGS -u MAKELEVEL -u DRY_RUN -u RECORD -u REV make -s $target) >"$scratch/out" 2>&1 ||
			{ echo "make $target failed:"; sed 's/^/    /' "$scratch/out"; return 1; }
		runs=$(wc -l <"$lab/tree-runs")
		echo "make $target: tree.sh ran $runs time(s)"
		((runs == 1)) || bad=1
	done
	# as dry runs: the tree printed once, made never
	for target in "${targets[@]}"; do
		rm -f "$lab/tree-runs"
		# shellcheck disable=SC2086 # the target and its knobs, words
		(cd "$lab" && env -u MAKEFLAGS -u MAKELEVEL -u RECORD -u REV DRY_RUN=1 make -s $target) >"$scratch/out" 2>&1 ||
			{ echo "DRY_RUN=1 make $target failed:"; sed 's/^/    /' "$scratch/out"; return 1; }
		printed=$(grep -cx '+ scripts/tree.sh' "$scratch/out" || true)
		runs=0
		[[ ! -e $lab/tree-runs ]] || runs=$(wc -l <"$lab/tree-runs")
		echo "DRY_RUN=1 make $target: tree.sh printed $printed time(s), ran $runs"
		((printed == 1 && runs == 0)) || bad=1
	done
	((bad == 0))
}

run_test tree_made_once_a_target "$@"
