#!/bin/bash
# The kernel's own BPF selftests on the base and on the series, in the VM, the way BPF CI runs them:
# a kernel built from the selftests' config (kernel.sh -c regress), test_progs, test_progs-no_alu32,
# test_maps and test_verifier (and on request test_lru_map) built from the same commit, run on the
# base commit and on the series.
#   scripts/regress.sh [options] [suite...]     (the options: scripts/regress.sh -h, usage() below)
# Tests in config/<base>/DENYLIST (and DENYLIST.<suite>), upstream's format, are not run. Each test
# of test_progs runs under LIMIT seconds (default 900), the others (run whole) under WHOLE_LIMIT
# (default 4 × LIMIT); a kernel that dies in a test (CRASH, HANG), or crashes or hangs after a
# test's end and before the next one starts (counted against the test that ended), is booted again
# for the tests after it, and a test that failed runs once more (passing then, it is reported
# flaky). Results are kept per kernel and suite in the cache and reused: a run cut short resumes.
# Prints pass/fail/skip per suite and kernel; exits 1 if a test that passes (or skips) on the base
# does not pass on the series, naming it, or if the base fails a test that the denylist does not
# name. Its builds and boots are the stages of scripts/lib/pipeline.sh (stage_kernel, stage_bench;
# vm.sh in the resume loop); DRY_RUN=1 (make -n regress) prints each side's commands, builds and
# boots nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs
# shellcheck source=lib/regress-runs.sh
. "$(dirname "$0")/lib/regress-runs.sh"

usage() {
	cat <<'USAGE'
usage: scripts/regress.sh [-b REV | -B DIR] [-r REV] [-p PATCH] [-a TESTS] [-o DIR] [-R] [suite...]
    -b REV    the base commit (default lab-base)
    -B DIR    the base's results recorded in DIR (-R), not run again: they must be of the kernel
              and the selftests that the base builds today
    -r REV    the series commit (default HEAD)
    -p PATCH  run the series with PATCH applied on top (a plant, lab/plants/NAME.patch)
    -a TESTS  test_progs tests to run (comma-separated globs; default all of them)
    -o DIR    results go to DIR/base and DIR/series, run afresh (default: the cache, reused)
    -R        the same as RECORD=1 (kept for the commands of older records): the results and a
              summary as a record, records/<base>/regress/ (scripts/readout.py records)
    LIMIT=S   each test_progs test's time limit, in seconds (default 900; part of the selection
              key: results kept under another LIMIT are not reused)
    WHOLE_LIMIT=S
              the time limit of a suite run whole (test_maps, test_verifier, test_lru_map), in
              seconds (default 4 x LIMIT; not in the selection key: a kept run stands if it
              ended within it or a limit as long killed it, else remove its files)
    VMS=1|2   one VM at a time, or the base's and the series' side by side (default: REGRESS_JOBS
              of config/<base>/tcg.conf, else 1)
    suite     test_progs test_progs-no_alu32 test_maps test_verifier (default: these four), or
              test_lru_map (the LRU hash maps' own test, run whole like test_maps)
USAGE
	exit 0
}
args=("$@")
all_suites=(test_progs test_progs-no_alu32 test_maps test_verifier)
known_suites=("${all_suites[@]}" test_lru_map)
base_rev=$BASE_TAG series_rev=HEAD allow='' plant='' recorded='' results=''
while getopts :b:B:r:p:a:o:Rh opt; do
	case $opt in
	b) base_rev=$OPTARG ;;
	B) recorded=$OPTARG ;;
	o) results=$OPTARG ;;
	R) export RECORD=1 ;;
	r) series_rev=$OPTARG ;;
	p) plant=$OPTARG ;;
	a) allow=$OPTARG ;;
	h) usage ;;
	*) bad_option "$opt" "$OPTARG" "scripts/regress.sh -h" ;;
	esac
done
shift $((OPTIND - 1))
suites=("${@:-${all_suites[@]}}")
for s in "${suites[@]}"; do
	[[ " ${known_suites[*]} " == *" $s "* ]] || die "unknown suite '$s' (expected: ${known_suites[*]})"
done
# what the selftests build makes: the four suites always (one build serves every run), and
# test_lru_map when it runs
build_suites=("${all_suites[@]}")
[[ " ${suites[*]} " != *" test_lru_map "* ]] || build_suites+=(test_lru_map)
limit=${LIMIT:-900}
# A whole suite's limit is not part of the selection key: a kept run of the suite stands only if
# it has the result a run under this limit would have (whole_run_stands: run_suite for the cache,
# check_recorded for -B).
whole_limit=${WHOLE_LIMIT:-$((4 * limit))}
((whole_limit < ${TIMEOUT:-$REGRESS_TIMEOUT})) ||
	die "WHOLE_LIMIT=$whole_limit: expected less than the VM's time limit, TIMEOUT=${TIMEOUT:-$REGRESS_TIMEOUT}"
jobs=${VMS:-$REGRESS_JOBS}
[[ $jobs == 1 || $jobs == 2 ]] || die "VMS=$jobs: expected 1 (one VM at a time) or 2 (the base's and the series' side by side)"
need python3 timeout

# denylist SUITE: the DENYLIST entries for SUITE, one per line, comments and blanks removed
denylist() {
	# DENYLIST is test_progs' (both flavours), as upstream's; DENYLIST.<suite> is the suite's own
	[[ $1 != test_progs* ]] || list_entries "$BASE_CONFIG/DENYLIST"
	list_entries "$BASE_CONFIG/DENYLIST.$1"
}

# vm_command TODO: the command of one VM that runs the tests listed in TODO, in the array vm_cmd
# (uses run_suite's variables: kernel, st, suite, suite_limit, deny)
vm_command() {
	vm_cmd=("$LAB_ROOT/scripts/vm.sh" -k "$kernel" -c "$VM_CPUS" \
		-p "${MAXCPUS:-$REGRESS_MAXCPUS}" -m "${MEM:-$REGRESS_MEM}" -t "${TIMEOUT:-$REGRESS_TIMEOUT}" \
		-s "${SILENCE:-$((suite_limit + 120))}" -- \
		"$(guest_command bash "$LAB_ROOT/scripts/regress-guest.sh" "$st" "$suite" "$suite_limit" "$1" "$deny")")
}

# run_vm TODO RUN: one VM that runs the tests listed in TODO, its output in RUN (uses run_suite's
# variables)
run_vm() {
	vm_command "$1"
	cd "$(dirname "$1")" &&
		TCG_THREAD=${TCG_THREAD:-$REGRESS_TCG_THREAD} exec "${vm_cmd[@]}" >"$2" 2>>"$out.console"
}

# suite_deny SUITE: the subtests of the DENYLIST entries of SUITE, test_progs -d's list, in deny;
# the entries in OUT.deny-entries
suite_deny() {
	denylist "$1" >"$2.deny-entries"
	deny=$(grep '/' "$2.deny-entries" | paste -sd, || true)	# subtests: test_progs -d
}

# dry_run_kernel SIDE REV: what run_kernel would run, printed: the builds of REV's regress kernel
# and selftests, and each suite's VM (the resume loop boots it again after a death, and once more
# for the tests that failed)
dry_run_kernel() {
	local side=$1 rev=$2 s out tmp tcg
	stage_out "commit_$side" tree_commit "$rev"
	commit_var=commit_$side
	stage_bench "st" regress "${!commit_var}" "${build_suites[@]}"
	stage_kernel "kernel" regress "${!commit_var}"
	tmp=$(mktemp -d)
	for s in "${suites[@]}"; do
		suite=$s suite_limit=$limit
		[[ $suite == test_progs* ]] || suite_limit=$whole_limit
		suite_deny "$suite" "$tmp/$suite"
		out=\$results_$side/$suite
		if [[ $suite == test_progs* ]]; then
			echo "+ (cd \"\$st\" && ./$suite -l${allow:+ -a $(shown "$allow")}) > $out.all"
			echo "+ $(shown python3 "$LAB_ROOT/scripts/readout.py" regress-results plan "$out.all" "$out.deny-entries" "$allow" "$out.todo" "$out.denied")"
		fi
		vm_command "$out.todo"
		tcg=${TCG_THREAD:-$REGRESS_TCG_THREAD}
		echo "+ ${tcg:+TCG_THREAD=$tcg }$(shown "${vm_cmd[@]}") > $out.run 2>> $out.console"
	done
	rm -rf "$tmp"
}

# run_suite KERNEL SELFTESTS DIR SUITE: the suite's results in DIR/SUITE.json (kept: reused)
run_suite() {
	local kernel=$1 st=$2 dir=$3 suite=$4 out todo deny started why after t status start suite_limit end
	out=$dir/$suite
	todo=$out.todo
	suite_limit=$limit
	[[ $suite == test_progs* ]] || suite_limit=$whole_limit
	suite_deny "$suite" "$out"
	: >"$out.denied"
	if [[ $suite == test_progs* ]]; then
		# The tests to run, in test_progs' order; whole tests on the denylist are not started.
		(cd "$st" && "./$suite" -l ${allow:+-a "$allow"}) >"$out.all" ||
			die "$st/$suite -l failed"
		python3 "$LAB_ROOT/scripts/readout.py" regress-results plan "$out.all" "$out.deny-entries" "$allow" \
			"$todo" "$out.denied"
	else
		echo "$suite" >"$todo"
	fi
	cp "$todo" "$out.plan"
	# Results are kept: a run cut short (Ctrl-C, the end of a session) resumes after the last test
	# it finished, and a finished suite runs nothing again.
	# Runs kept without their console (their kernel log) cannot be checked for splats: stop before
	# the VM rather than at the end.
	[[ ! -s $out.out || -f $out.console ]] ||
		die "$suite: $out.out holds runs without their console ($out.console), so their splats are unknown: remove $out.* to run $suite again"
	# a whole suite's kept run stands only if it has the result a run under this limit would have
	# ($out.limit: the limit it ran under; before it was written, 4 x LIMIT, LIMIT being in the key)
	end=$([[ $suite == test_progs* || ! -f $out.out ]] || last_end "$out.out" "$suite")
	# shellcheck disable=SC2086 # RC SECS
	if [[ -n $end ]] && ! why=$(whole_run_stands $end "$suite_limit" "$(cat "$out.limit" 2>/dev/null || echo $((4 * limit)))"); then
		die "$suite: $why (WHOLE_LIMIT): remove $out.* to run it again"
	fi
	if [[ -s $out.out ]]; then
		python3 "$LAB_ROOT/scripts/readout.py" regress-results marks finished "$out.out" >"$out.finished"
		drop_listed "$out.finished" "$todo" >"$todo.tmp"
		mv "$todo.tmp" "$todo"
		note "$suite: $(wc -l <"$out.finished") tests finished in an earlier run, $(wc -l <"$todo") to run ($out.out)"
	fi
	touch "$out.out"
	[[ $suite == test_progs* || ! -s $todo ]] || echo "$suite_limit" >"$out.limit"
	# Ctrl-C reaches QEMU too, and vm.sh may then report anything: an interrupted run is not a
	# crash, and ends here (the next run resumes).
	interrupted=0
	trap 'interrupted=1' INT TERM
	run_todo "$todo"
	# A test_progs test that failed runs once more, in a new VM, after the others: one that passes
	# then is flaky (its record says so), not failed. Done once per suite run.
	if [[ $suite == test_progs* ]] && ! python3 "$LAB_ROOT/scripts/readout.py" regress-results marks retried "$out.out"; then
		python3 "$LAB_ROOT/scripts/readout.py" regress-results marks failed "$out.out" >"$out.failed"
		keep_listed "$out.failed" "$out.plan" >"$todo"
		if [[ -s $todo ]]; then
			note "$suite: $(wc -l <"$todo") failed tests run again: $(cut -d' ' -f1 "$todo" | xargs)"
			run_todo "$todo"
		fi
		echo 'lab-regress: retried' >>"$out.out"
	fi
	cat "$out.denied" "$out.deny-entries" >"$out.deny-all"
	python3 "$LAB_ROOT/scripts/readout.py" regress-results parse "$suite" "$out.out" "$out.deny-all" \
		"$(cat "$out.wall" 2>/dev/null || echo 0)" "$out.console" >"$out.json.tmp"
	mv "$out.json.tmp" "$out.json"
}

# selection_key: what the results depend on besides the kernel, the selftests and -a. Not the
# DENYLIST: a test it names is DENIED in the results whether it ran before or not (a subtest entry
# applies to the runs of its test after the change).
selection_key() {
	echo "$limit ${MAXCPUS:-$REGRESS_MAXCPUS}" | sha1sum | cut -c1-8
}

# run_kernel SIDE REV: build the regress kernel and selftests of REV, run the suites; prints the
# results directory. It runs in a command substitution (where lib.sh's inherit_errexit takes set -e)
# and in the background (VMS=2); each step that can fail also returns its status, so that a failed
# build stops the run with its own error line wherever it runs.
run_kernel() {
	local side=$1 rev=$2 commit st kernel full dir s about
	commit=$(tree_commit "$rev") || return
	stage_bench st regress "$commit" "${build_suites[@]}" || return
	stage_kernel kernel regress "$commit" || return
	# In the cache, a run of some test_progs tests (-a) has a directory of its own; the other
	# suites' results are those of the full run, shared.
	full=$BASE_CACHE/regress/$(basename "$st")-$(selection_key)
	dir=$full
	[[ -z $allow ]] || dir+=-$(sha1sum <<<"$allow" | cut -c1-8)
	[[ -z $results ]] || full=$results/$side dir=$results/$side
	mkdir -p "$dir" "$full"
	about=$(git -C "$TREE" log -1 --format='%H %s' "$commit") || return
	printf 'commit %s\nkernel %s\nselftests %s\nselection %s\n' "$about" \
		"$(basename "$kernel")" "$(basename "$st")" "$(selection_key)" | tee "$full/about" >"$dir/about"
	for s in "${suites[@]}"; do
		if [[ $s == test_progs* ]]; then
			run_suite "$kernel" "$st" "$dir" "$s" >&2 || return
		else
			run_suite "$kernel" "$st" "$full" "$s" >&2 || return
			[[ $dir == "$full" ]] || ln -sfn "$full/$s.json" "$dir/$s.json"
		fi
	done
	echo "$dir"
}

# check_recorded DIR: DIR holds results of the base as it builds today
check_recorded() {
	local dir=$1 commit kernel st want s rc secs ran why
	[[ -f $dir/about ]] || die "-B $dir: no recorded results there (about missing)"
	commit=$(tree_commit "$base_rev")
	kernel=$("$LAB_ROOT/scripts/kernel.sh" -n -c regress "$commit")
	st=$("$LAB_ROOT/scripts/bench-build.sh" -n -c regress "$commit" test_progs)
	want=$(printf 'kernel %s\nselftests %s\nselection %s' "${kernel##*/}" "${st##*/}" "$(selection_key)")
	[[ $(sed -n '/^kernel /p; /^selftests /p; /^selection /p' "$dir/about") == "$want" ]] ||
		die "-B $dir: recorded for another kernel, selftests or selection than the base builds now (record again: make regress RECORD=1)"
	for s in "${suites[@]}"; do
		[[ -f $dir/$s.json ]] || die "-B $dir: no recorded results of $s"
		[[ $s != test_progs* ]] || continue
		read -r rc secs ran < <(python3 "$LAB_ROOT/scripts/readout.py" regress-results ran "$dir/$s.json" "$s" "$dir/../meta.json") ||
			die "-B $dir: $s.json holds no result of $s"
		why=$(whole_run_stands "$rc" "$secs" "$whole_limit" "${ran:-$((4 * limit))}") || die "-B $dir: $s: $why (WHOLE_LIMIT)"
	done
}

[[ -z $plant || -f $plant ]] || die "-p $plant: no such patch"
[[ -z $recorded || -d $recorded ]] || die "-B $recorded: no such directory"
check_variant "$base_rev"
check_variant "$series_rev"
stage_tree
if dry_run; then
	[[ -z $plant ]] || stage_out series_rev patched_commit "$series_rev" "$(realpath "$plant")"
	[[ -n $recorded ]] || dry_run_kernel base "$base_rev"
	dry_run_kernel series "$series_rev"
	base_dir=${recorded:-\$results_base}
	# shellcheck disable=SC2016 # the dry run's stand-ins
	echo "+ $(shown python3 "$LAB_ROOT/scripts/readout.py" regress-results summary "base=$base_dir" 'series=$results_series')"
	# shellcheck disable=SC2016 # the dry run's stand-ins
	echo "+ $(shown python3 "$LAB_ROOT/scripts/readout.py" regress-results diff "$base_dir" '$results_series' "$allow")"
	lab_record --kind regress --name "regress${plant:+-$(basename "$plant" .patch)}" --what "make regress on $BASE" \
		--command "BASE=$BASE scripts/regress.sh ${args[*]}" DOC/base DOC/series DOC/summary.txt
	note "dry run: nothing was built, booted or run"
	exit 0
fi
[[ -z $results ]] || { rm -rf "$results/base" "$results/series"; mkdir -p "$results"; }
lock_tree
if [[ -n $plant ]]; then
	planted=$(patched_commit "$series_rev" "$(realpath "$plant")") || die "-p $plant does not apply on $series_rev"
	series_rev=$planted
fi
# selftests_of REV: the name of REV's regress selftests (their key holds the kernel's)
selftests_of() {
	local commit st
	commit=$(tree_commit "$1")
	st=$("$LAB_ROOT/scripts/bench-build.sh" -n -c regress "$commit" test_progs)
	echo "${st##*/}"
}
# Two sides with one kernel and one selftests (-r of the base, or a series that changes neither)
# share one results directory in the cache: side by side, both would run every test into it.
if ((jobs == 2)) && [[ -z $recorded && -z $results ]]; then
	base_selftests=$(selftests_of "$base_rev")
	series_selftests=$(selftests_of "$series_rev")
	if [[ $base_selftests == "$series_selftests" ]]; then
		note "VMS=2: the base and the series build one kernel and one selftests: one VM at a time"
		jobs=1
	fi
fi
start=$SECONDS
if [[ -n $recorded ]]; then
	check_recorded "$recorded"
	base_dir=$recorded
	series_dir=$(run_kernel series "$series_rev")
elif ((jobs == 1)); then
	base_dir=$(run_kernel base "$base_rev")
	series_dir=$(run_kernel series "$series_rev")
else
	# VMS=2 (config/<base>/tcg.conf's REGRESS_JOBS): both sides' kernels and selftests first, one build at a time, then the two
	# sides' VMs at once (each side's notes name it). The run waits for both sides, then stops
	# naming a side that failed.
	for rev in "$base_rev" "$series_rev"; do
		commit=$(tree_commit "$rev")
		stage_bench st regress "$commit" "${build_suites[@]}"
		stage_kernel kernel regress "$commit"
	done
	sides=$(mktemp -d)
	trap 'rm -rf "$sides"' EXIT
	LAB_NOTE_PREFIX='base: ' run_kernel base "$base_rev" >"$sides/base" &
	base_pid=$!
	LAB_NOTE_PREFIX='series: ' run_kernel series "$series_rev" >"$sides/series" &
	series_pid=$!
	# A signal reaches both sides too (one process group): wait until they have stopped their VMs.
	signalled=0
	trap 'signalled=1' INT TERM HUP
	wait_for "$base_pid" "$series_pid"
	trap - INT TERM HUP
	((!signalled)) || { note "interrupted"; exit 130; }
	((wait_status[0] == 0)) || die "the base's side ended with status ${wait_status[0]}"
	((wait_status[1] == 0)) || die "the series' side ended with status ${wait_status[1]}"
	base_dir=$(cat "$sides/base") series_dir=$(cat "$sides/series")
fi
if [[ -z $results ]]; then
	ln -sfn "$base_dir" "$BASE_CACHE/regress/base"
	ln -sfn "$series_dir" "$BASE_CACHE/regress/series"
fi
summary=$(python3 "$LAB_ROOT/scripts/readout.py" regress-results summary base="$base_dir" series="$series_dir")
rc=0
diff=$(python3 "$LAB_ROOT/scripts/readout.py" regress-results diff "$base_dir" "$series_dir" "$allow") || rc=$?
echo "$summary"
echo "$diff"
if [[ ${RECORD:-0} == 1 ]]; then
	doc=$(mktemp -d)
	trap 'rm -rf "$doc" "${sides:-}"' EXIT
	python3 "$LAB_ROOT/scripts/readout.py" regress-results record "$doc" base="$base_dir" series="$series_dir"
	{
		echo "make regress on $BASE: the BPF selftests on the base and on the series"
		echo "LIMIT=$limit, WHOLE_LIMIT=$whole_limit, MAXCPUS=${MAXCPUS:-$REGRESS_MAXCPUS}: $((SECONDS - start)) s, runs kept in the cache reused; a suite's wall time is that of all its runs, VM boots included."
		echo
		echo "$summary"
		echo
		echo "$diff"
	} >"$doc/summary.txt"
	lab_record --kind regress --name "regress${plant:+-$(basename "$plant" .patch)}" --clock "$(vm_clock "$base_dir"/*.console "$series_dir"/*.console)" \
		--what "make regress on $BASE${KERNEL_TOOLCHAIN:+ (kernels and selftests built with $KERNEL_TOOLCHAIN, LLVM=1)}: ${suites[*]} on the base and on the series, $([[ -n $allow ]] && echo 'selected test_progs tests (-a)' || echo 'every test')$([[ -n $plant ]] && echo ", the series with $(basename "$plant")")" \
		--command "BASE=$BASE${KERNEL_TOOLCHAIN:+ LLVM=1}${LIMIT:+ LIMIT=$LIMIT}${WHOLE_LIMIT:+ WHOLE_LIMIT=$WHOLE_LIMIT} scripts/regress.sh ${args[*]}" --param "toolchain=${KERNEL_TOOLCHAIN:-gcc}" --param "allow=$allow" --param "suites=$(IFS=,; echo "${suites[*]}")" \
		--param "limit=$limit" --param "whole_limit=$whole_limit" --param "maxcpus=${MAXCPUS:-$REGRESS_MAXCPUS}" "$doc/base" "$doc/series" "$doc/summary.txt"
fi
# the last line: where the results are (kept per kernel and suite, reused by the next run)
note "results: base $base_dir/, series $series_dir/$([[ -n $results ]] || echo " (latest: $BASE_CACHE/regress/base, series)")"
exit "$rc"
