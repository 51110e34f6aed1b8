#!/bin/bash
# The pipeline's dry run, as virtme-ng's --dry-run: `make -n TARGET` (or DRY_RUN=1) of make bench,
# check-debug, nmi and regress prints the commands of each stage of scripts/lib/pipeline.sh (the
# tree, the kernel of its config, the bench or selftests, the VM with its runner, the judgement of
# the splats) and runs none that builds or boots, nor makes a directory in the cache; bad input
# is still one line. On a scratch copy of the lab whose deps.sh, tree.sh, kernel.sh,
# bench-build.sh, vm.sh and nmi_stackmap's build.sh are fakes that note each call.
# Plant: a dry run that runs the stages (dry_run never true).
# Plant command: sed -i 's/^\t\[\[ \${DRY_RUN:-0} == 1 \]\]$/\tfalse/' scripts/lib/pipeline.sh
# Plant: make -n check-debug only printing check-debug.sh (its recipe without the leading +).
# Plant command: sed -i 's|^\t+@scripts/check-debug.sh$|\t@scripts/check-debug.sh|' Makefile
# Plant: WHOLE_LIMIT not followed (a whole suite's limit always 4 x LIMIT).
# Plant command: sed -i 's/suite_limit=\$whole_limit/suite_limit=$((4 * limit))/' scripts/regress.sh
# Plant: a WHOLE_LIMIT past the VM's own time limit let through.
# Plant command: sed -i 's/^((whole_limit < /((0 < /' scripts/regress.sh
# shellcheck disable=SC2016 # the lines a dry run prints hold $NAME stand-ins, as written
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# fake_lab DIR: a copy of the lab in DIR whose building and booting scripts only note their call
# in DIR/ran
fake_lab() {
	local lab=$1 f
	mkdir -p "$lab/cache" "$lab/tools/testing/nmi_stackmap"
	cp -a "$LAB_ROOT/Makefile" "$LAB_ROOT/scripts" "$LAB_ROOT/config" "$LAB_ROOT/lab" "$lab/"
	for f in scripts/deps.sh scripts/tree.sh scripts/kernel.sh scripts/bench-build.sh scripts/vm.sh \
		tools/testing/nmi_stackmap/build.sh; do
		printf '#!/bin/bash\necho "%s $*" >>%q\necho /nowhere\n' "$f" "$lab/ran" >"$lab/$f"
		chmod +x "$lab/$f"
	done
}

# has OUT LINE...: each LINE is a line of OUT (a glob)
has() {
	local out=$1 line
	shift
	for line; do
		# shellcheck disable=SC2053 # LINE is a glob
		grep -q . <<<"$out" && while IFS= read -r l; do [[ $l == $line ]] && continue 2; done <<<"$out"
		echo "no line '$line'"
		return 1
	done
}

dry_run_builds_and_boots_nothing() {
	local lab=$scratch/lab out
	fake_lab "$lab"
	export LAB_CACHE=$lab/cache LAB_TREE=$lab/no-tree
	out=$(make -s -C "$lab" -n check-debug 2>&1) || { echo "make -n check-debug failed: $out"; return 1; }
	echo "make -n check-debug:"
	echo "$out"
	has "$out" '+ scripts/tree.sh' '+ kernel=$(scripts/kernel.sh -c debug "$kernel_commit")' \
		'+ selftests_dir=$(scripts/bench-build.sh -c debug "$kernel_commit" test_progs test_maps)' \
		'+ nmi_stackmap=$(tools/testing/nmi_stackmap/build.sh "$selftests_dir" *' \
		'+ scripts/vm.sh -k "$kernel" -c * -- '"'"'scripts/guest/debug-run.sh -b $bench_1 -s $selftests_dir -N $nmi_stackmap; rc=$?; *' \
		'+ read -r splats unknown_splats < <(judge_splats */console.log */console.log.err)' '>>> dry run: *' || return 1
	out=$(DRY_RUN=1 make -s -C "$lab" bench BENCHS=trigger 2>&1) || { echo "DRY_RUN=1 make bench failed: $out"; return 1; }
	echo "DRY_RUN=1 make bench:"
	echo "$out"
	has "$out" '+ scripts/deps.sh' '+ kernel=$(scripts/kernel.sh -c bench "$kernel_commit")' \
		'+ scripts/vm.sh -k "$kernel" -t * -- '"'"'scripts/guest/suite.sh -b $bench_1 -w vm * trigger'"'"' > */bench.log 2> */bench.log.err; status=$?' \
		'+ status=$(python3 scripts/readout.py benchout run -a */runs.jsonl */bench.log runner=suite *)' \
		'+ report=$(python3 scripts/readout.py benchout report */runs.jsonl */table.txt)' '+ tee -a */bench.log < */table.txt' || return 1
	out=$(make -s -C "$lab" -n nmi 2>&1) || { echo "make -n nmi failed: $out"; return 1; }
	has "$out" '+ kernel=$(scripts/kernel.sh -c regress "$kernel_commit")' \
		'+ scripts/vm.sh -k "$kernel" * -- '"'"'scripts/guest/nmi.sh -s $selftests_dir -N $nmi_stackmap 10; rc=$?; *' \
		'+ read -r splats unknown_splats < <(judge_splats */series.log */series.log.err)' || { echo "$out"; return 1; }
	out=$(make -s -C "$lab" -n regress SUITES=test_maps 2>&1) || { echo "make -n regress failed: $out"; return 1; }
	has "$out" '+ kernel=$(scripts/kernel.sh -c regress "$commit_series")' \
		'+ TCG_THREAD=single scripts/vm.sh -k "$kernel" * -- "bash scripts/regress-guest.sh $st test_maps 3600 *' || { echo "$out"; return 1; }
	# a whole suite's limit: 4 x LIMIT, or WHOLE_LIMIT (the VM's silence limit follows it)
	out=$(make -s -C "$lab" -n regress SUITES=test_maps WHOLE_LIMIT=7200 2>&1) || { echo "make -n regress failed: $out"; return 1; }
	has "$out" '+ TCG_THREAD=single scripts/vm.sh -k "$kernel" * -s 7320 -- "bash scripts/regress-guest.sh $st test_maps 7200 *' || { echo "$out"; return 1; }
	# ... under the VM's own time limit, or one line
	out=$(make -s -C "$lab" -n regress SUITES=test_maps WHOLE_LIMIT=30000 2>&1) && { echo "WHOLE_LIMIT=30000 passed: $out"; return 1; }
	grep -q "^error: WHOLE_LIMIT=30000: expected less than the VM's time limit, TIMEOUT=" <<<"$out" || { echo "$out"; return 1; }
	# (config/7.3/tcg.conf: regress runs single-threaded TCG.) test_lru_map: built with the four suites, run whole
	out=$(make -s -C "$lab" -n regress SUITES=test_lru_map 2>&1) || { echo "make -n regress failed: $out"; return 1; }
	has "$out" '+ st=$(scripts/bench-build.sh -c regress "$commit_series" test_progs test_progs-no_alu32 test_maps test_verifier test_lru_map)' \
		'+ TCG_THREAD=single scripts/vm.sh -k "$kernel" * -- "bash scripts/regress-guest.sh $st test_lru_map *' || { echo "$out"; return 1; }
	[[ ! -e $lab/ran ]] || { echo "built or booted:"; cat "$lab/ran"; return 1; }
	[[ -z $(ls -A "$LAB_CACHE") ]] || { echo "the dry runs wrote to the cache:"; find "$LAB_CACHE"; return 1; }
	# bad input: one line, as in a real run
	out=$(make -s -C "$lab" -n check-debug MEM=2GB 2>&1 | grep -v '^scripts/\|^make' || true)
	echo "make -n check-debug MEM=2GB: $out"
	[[ $out == "error: MEM=2GB: expected a size like 512M or 2G" ]] || return 1
	expect_fail '^error: -C nope: expected bench, debug or regress$' "$lab/scripts/measure.sh" -n -C nope suite
}

run_test dry_run_builds_and_boots_nothing "$@"
