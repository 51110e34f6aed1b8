#!/bin/bash
# The measurement pipeline, scripts/measure.sh, end to end without a kernel or a VM: on a scratch
# copy of the lab whose tree.sh, deps.sh, kernel.sh, bench-build.sh and vm.sh are fakes (vm.sh runs
# the guest's command line with bash on the host; the bench prints a Summary line), a run of the
# suite appends one JSON line with its labels and results to the runs file, and make bench prints
# its summary row from that line exactly as scripts/guest/suite.sh's printf did in the guest; make
# scaling prints its table from its run's line. Each lands in a run directory of the cache
# (scripts/lib/results.sh) with a `latest` link, holding its runs file and its table, and its last
# line names that directory. make bench reads its runs file once (readout.py benchout report: the table,
# the commit and the clock), and measure.sh has the run's status from the Python that wrote its
# line (readout.py benchout run -a), not from a reading of the file: one Python start on the runs file
# besides the one that appends to it (five there were).
# Plant: make bench keeping its runs in a temporary directory removed on exit, as it did before.
# Plant command: sed -i 's|^out=$(results_dir "$target")$|out=$(mktemp -d); trap '"'"'rm -rf "$out"'"'"' EXIT|' scripts/bench.sh
# Plant: make bench reading its runs file again for the clock.
# Plant command: sed -i 's/^\t{ read -r rev; read -r clock; } <<<"\$report"$/&\n\tclock=$(python3 "$LAB_ROOT\/scripts\/readout.py" benchout clock "$runs")/' scripts/bench.sh
# Plant: the summary row's mean a column narrower than the suite printed it.
# Plant command: sed -i "s/mean_text']:>10}/mean_text']:>9}/" scripts/readout/benchout.py
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# fake_lab DIR: a copy of the lab in DIR, with fakes for what builds or boots, and a tree of one
# commit in DIR/tree (tagged as the base)
fake_lab() {
	local lab=$1
	fake_lab_copy "$lab"
	mkdir -p "$lab/bench-out"
	printf '#!/bin/sh\necho "Setting up benchmark '\''fake'\''..."\necho "Summary: hits    9.329 \\302\\261 0.142M/s (  9.329M/prod), drops    0.000 \\302\\261 0.000M/s"\n' >"$lab/bench-out/bench"
	chmod +x "$lab/bench-out/bench"
	printf '#!/bin/bash\necho %q\n' "$lab/bench-out" >"$lab/scripts/bench-build.sh"
	printf '#!/bin/bash\necho %q\n' "$lab/kernel" >"$lab/scripts/kernel.sh"
	# vm.sh [options] -- COMMAND-LINE: the guest's command line, run by bash
	# shellcheck disable=SC2016 # the fake's own "$@"
	printf '#!/bin/bash\nexec bash -c "${@: -1}"\n' >"$lab/scripts/vm.sh"
	chmod +x "$lab/scripts/"*.sh
}

# landed LAST DIR: a measuring command's last line LAST names its run directory, DIR/latest, which
# holds its runs file and its table
landed() {
	local last=$1 dir=$2 run
	echo "last line: $last"
	run=$(readlink -f "$dir/latest") || { echo "no $dir/latest"; return 1; }
	[[ $last == ">>> results: $run/ (latest: $dir/latest)" ]] || { echo "the last line does not name $run"; return 1; }
	[[ -s $run/runs.jsonl && -s $run/table.txt ]] || { echo "$run: no runs.jsonl or table.txt"; return 1; }
}

measure_runs_without_a_vm() {
	local lab=$scratch/lab name family out row
	fake_lab "$lab"
	export LAB_CACHE=$lab/cache LAB_TREE=$lab/tree
	read -r family name _ < <(registry_select vm | head -n1)
	"$lab/scripts/measure.sh" -q -K base -o "$scratch/runs.jsonl" -L trial=2 -L variant=base -- suite -w vm "$name"
	"$lab/scripts/measure.sh" -q -i -o "$scratch/runs.jsonl" -L trial=3 -- suite -w vm "$name"
	cat "$scratch/runs.jsonl"
	[[ $(wc -l <"$scratch/runs.jsonl") == 2 ]] || { echo "expected two JSON lines, one a run"; return 1; }
	out=$(python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(r["runner"], r["where"], r["clock"], r["status"], r["labels"]["trial"], r["results"][0]["name"], r["results"][0]["mean"])' "$scratch/runs.jsonl")
	echo "$out"
	[[ $(head -n1 <<<"$out") == "suite vm "*" 0 2 $name 9.329" && $(tail -n1 <<<"$out") == "suite vm icount 0 3 $name 9.329" ]] ||
		{ echo "expected the runs' runner, clock, status, label and result"; return 1; }
	# python3 on PATH notes each start, then runs the real one
	mkdir -p "$scratch/bin"
	printf '#!/bin/bash\necho "$*" >>%q\nexec %q "$@"\n' "$scratch/python3.log" "$(command -v python3)" >"$scratch/bin/python3"
	chmod +x "$scratch/bin/python3"
	out=$(BENCHS=$name PATH=$scratch/bin:$PATH make -s -C "$lab" bench 2>"$scratch/bench.err")
	echo "$out"
	landed "$(tail -n1 "$scratch/bench.err")" "$LAB_CACHE/$BASE/results/bench" || return 1
	echo "python3 on the runs file:"
	grep -F runs.jsonl "$scratch/python3.log" | sed "s|$lab/||g; s/^/  /"
	[[ $(grep -F runs.jsonl "$scratch/python3.log" | grep -vc ' run -a ') == 1 ]] ||
		{ echo "expected one reading of the runs file (readout.py benchout report), besides the line's writer"; return 1; }
	row=$(printf '  %s' "$(printf '%-28s %10s ± %-8s %-5s' "$name" 9.329 0.142 M/s)")
	grep -qxF "lab-raw: bench $name $family" <<<"$out" || { echo "no raw run of bench from the guest"; return 1; }
	[[ $(tail -n2 <<<"$out") == "Summary (vm, bench -w$SUITE_WARMUP -d$SUITE_DURATION):"$'\n'"$row" ]] ||
		{ echo "expected the summary row '$row'"; return 1; }
	# make scaling: one run of two benches, its table from the run's line
	read -r _ name _ < <(registry_select vm trigger | head -n1)
	out=$("$lab/scripts/compare/scaling.sh" -n 1 -d 1 "$name" 2>"$scratch/scaling.err")
	echo "$out"
	landed "$(tail -n1 "$scratch/scaling.err")" "$LAB_CACHE/$BASE/results/scaling-vm" || return 1
	grep -qE "^$name +A +9\.329 +9\.329 +1\.00 +1\.00\.\.1\.00 *$" <<<"$out" || { echo "expected the table row of $name A"; return 1; }
}

run_test measure_runs_without_a_vm "$@"
