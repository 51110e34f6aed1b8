#!/bin/bash
# Every recording goes through the lab's one record helper, lab_record (scripts/lib/pipeline.sh):
# the lab's scripts call it, and the commands that do not source the lab's library (.ci/run, the
# harness of tools/testing/pcpu_freelist) call scripts/lab-record.sh, which does; none calls
# scripts/readout.py records write itself (.ci/run and run.sh mt and count did, each with its own switch,
# error and message). scripts/lab-record.sh writes the record with RECORD=1 only, prints it in a
# dry run, and refuses a call without "--" in one line. (tools/testing/bpf_lru_list's run.sh and
# kbench.sh still write theirs their own way: not yet moved.)
# Plant: .ci/run writing its record with readout.py records write again.
# Plant command: sed -i 's|RECORD=1 scripts/lab-record.sh -- |scripts/readout.py records write |' .ci/run
# Plant: lab-record.sh writing without RECORD=1.
# Plant command: sed -i 's/^lab_record "\$@"$/RECORD=1 lab_record "$@"/' scripts/lab-record.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

records_written_by_one_helper() {
	local others out args
	# a command line that starts with readout.py records write, or the old records.py write (after
	# VAR=value words)
	others=$(cd "$LAB_ROOT" && { { find scripts tools -name '*.sh'; echo .ci/run; } | xargs grep -nE \
		'^[[:space:]]*([A-Za-z_]+=[^ ]*[[:space:]]+)*"?[^ "#]*scripts/(readout\.py"? records|records\.py"?) write' | grep -vE '^tools/testing/bpf_lru_list/' || true; })
	[[ -z $others ]] || { echo "records written past lab_record:"; echo "$others"; return 1; }
	grep -q 'scripts/lab-record.sh -- ' "$LAB_ROOT/.ci/run" || { echo ".ci/run does not record through scripts/lab-record.sh"; return 1; }
	[[ $(grep -c 'scripts/lab-record.sh" -- ' "$LAB_ROOT/tools/testing/pcpu_freelist/run.sh") == 2 ]] ||
		{ echo "run.sh mt and count do not record through scripts/lab-record.sh"; return 1; }
	echo '{}' >"$scratch/results.json"
	args=(--base all --kind mt --name one-helper --clock native --command true --what "the one record helper's test" "$scratch/results.json")
	LAB_RECORDS=$scratch/records env -u RECORD -u DRY_RUN "$S/lab-record.sh" -- "${args[@]}"
	[[ ! -e $scratch/records ]] || { echo "a record written without RECORD=1:"; find "$scratch/records"; return 1; }
	out=$(LAB_RECORDS=$scratch/records RECORD=1 DRY_RUN=1 "$S/lab-record.sh" -- "${args[@]}" 2>&1)
	echo "dry run: $out"
	[[ $out == "+ scripts/readout.py records write --base all --kind mt --name one-helper "* && ! -e $scratch/records ]] ||
		{ echo "expected the command printed, nothing written"; return 1; }
	out=$(LAB_RECORDS=$scratch/records RECORD=1 env -u DRY_RUN "$S/lab-record.sh" -- "${args[@]}" 2>&1)
	echo "RECORD=1: $out"
	[[ $out == ">>> recorded in $scratch/records/all/mt/"*"-one-helper (git add it)" && -f $(echo "$scratch"/records/all/mt/*-one-helper/results.json) ]] ||
		{ echo "expected the record written and named"; return 1; }
	expect_fail '^error: --base: expected -- and the arguments of scripts/readout.py records write' env RECORD=1 "$S/lab-record.sh" "${args[@]}"
}

run_test records_written_by_one_helper "$@"
