#!/bin/bash
# What README and Documentation/lab.md say about the lab is true: each statement checked here
# against the scripts, or against the command that produced its number.
# Plant: a default changed in config/vm.conf and not in README.md.
# Plant command: sed -i 's/^BENCH_TIMEOUT=1200/BENCH_TIMEOUT=1500/' config/vm.conf
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

docs_match_the_lab() {
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
	tr '\n' ' ' <"$readme" | grep -q "\`CPUS=$VM_CPUS\` online CPUs.*\`MEM=$VM_MEM\`.*\`SILENCE=$VM_SILENCE\` seconds" ||
		{ echo "README: CPUS, MEM, SILENCE defaults are config/vm.conf's $VM_CPUS, $VM_MEM, $VM_SILENCE"; return 1; }
	grep -q "exit 3'.*vm.sh exits 3, so make fails (exit 2)" "$readme" ||
		{ echo "README: make vm CMD='... exit 3' makes make exit 2"; return 1; }
	# shellcheck disable=SC2016 # backquotes of Markdown, not a command
	! grep -q 'edit, build with `make kernel`' "$readme" ||
		{ echo "README: make kernel builds commits, not edits"; return 1; }
	for f in "$LAB_ROOT"/config/*/base.conf; do
		if grep -qi 'included by the Makefile' "$f"; then
			grep -q '^include.*base.conf' "$LAB_ROOT/Makefile" || { echo "$f: the Makefile does not include it"; return 1; }
		fi
	done
	! grep -q 'within 0.5%\|about 0.1%' "$readme" "$lab" || { echo "an unmeasured repeatability figure"; return 1; }
}

run_test docs_match_the_lab "$@"
