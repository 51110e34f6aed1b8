#!/bin/bash
# Every test keeps a plant: the defect that makes it fail, named in its "# Plant:" comment. This
# applies each test's "# Plant command:" (a shell command run at the top of a copy of the lab) to
# a scratch copy of the lab, runs the test there with the copy's runner, and records what it
# printed: a test must fail with its plant. The log lands in the results of the cache,
# $LAB_CACHE/<base>/results/plants/<date>/plant.log (scripts/lib/results.sh; the last line names
# it), or in the file -o names; RECORD=1 also writes it as a record, records/all/plant/
# (scripts/readout.py records). (Until 2026-12-06 it was recorded unless -o named a file.)
#   tests/plants.sh [-n] [-t TIER,...] [-a GLOB,...] [-o LOG]
#     -n        apply each plant only, the tests not run: does every plant still change the lab?
#               (unit test plants_still_apply, every tier)
#     -t TIERS  the tiers whose plants run (default unit,lab)
#     -a GLOBS  only the tests whose tier/name matches
#     -o LOG    where the log goes (default: $LAB_CACHE/<base>/results/plants/<date>/plant.log)
# Exits 1 when a plant changes nothing or its test does not fail. Tests without a plant command
# are listed at the end of the log, with their plant in words.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
check_knobs

usage() {
	cat <<'USAGE'
usage: tests/plants.sh [-n] [-t TIER,...] [-a GLOB,...] [-o LOG]
  -n  apply the plants only (each must change the lab), run no test
  -t  tiers whose plants run (default unit,lab)   -a  tests whose tier/name matches a glob
  -o  the log (default: the cache's results/plants/<date>/plant.log; RECORD=1: also a record,
      records/all/plant/)
USAGE
	exit 0
}

tiers=unit,lab allow='' log='' apply_only=0 args=("$@")
while getopts :nt:a:o:h opt; do
	case $opt in
	n) apply_only=1 ;;
	t) tiers=$OPTARG ;;
	a) allow=$OPTARG ;;
	o) log=$OPTARG ;;
	h) usage ;;
	*) bad_option "$opt" "$OPTARG" "${0##*/} -h" ;;
	esac
done
shift $((OPTIND - 1))
(($# == 0)) || usage 2 >&2

scratch=$(mktemp -d "${TMPDIR:-/tmp}/lab-plants.XXXXXX")
trap 'remove_scratch "$scratch"' EXIT
run_dir=''
[[ -n $log ]] || { run_dir=$(results_dir plants); log=$run_dir/plant.log; }

# first_base TIER/NAME: the first base whose list runs the test.
first_base() {
	local b
	for b in $(lab_bases); do
		list_entries "$LAB_ROOT/config/$b/tests" | awk '{ print $1 }' | grep -qxF "$1" && { echo "$b"; return; }
	done
	# only marked slow: the first base that runs it in make check-slow
	for b in $(lab_bases); do
		list_entries "$LAB_ROOT/config/$b/tests" | awk '$1 == "slow" { print $2 }' | grep -qxF "$1" && { echo "$b"; return; }
	done
	return 0
}

# lab_copy DIR: the lab's files as git sees them (committed, changed and new, not ignored) in DIR,
# with the lab's history (a clone sharing its objects, its index HEAD's) for the tests that read it.
lab_copy() {
	git clone -q --shared --no-checkout "$LAB_ROOT" "$1"
	git -C "$1" read-tree HEAD
	# shellcheck disable=SC2016 # the inner sh expands $1
	(cd "$LAB_ROOT" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 -I{} sh -c '[ -e "$1" ] && printf "%s\0" "$1" || true' - {} |
		tar --null -T - -cf -) | tar -C "$1" -xf -
}

# restore_copy COPY: the files a plant changed in COPY (against its index) put back, those it added
# removed; fails when it changed nothing.
restore_copy() {
	local copy=$1 changed=0 entry
	local -a tracked=() added=()
	# "XY path": X compares the index with HEAD (the lab's own changes, not the plant's), Y the
	# files with the index
	while IFS= read -r -d '' entry; do
		case ${entry:0:2} in
		'??') added+=("${entry:3}") changed=1 ;;
		?' ') ;;
		*) tracked+=("${entry:3}") changed=1 ;;
		esac
	done < <(git -C "$copy" status --porcelain=v1 -z --untracked-files=all --no-renames)
	((${#tracked[@]} == 0)) || git -C "$copy" checkout -q -- "${tracked[@]}"
	if ((${#added[@]})); then
		(cd "$copy" && rm -f -- "${added[@]}" && for entry in "${added[@]}"; do
			[[ $entry != */* ]] || rmdir -p --ignore-fail-on-non-empty -- "${entry%/*}"
		done)
	fi
	((changed))
}

failed=0 ran=0 words=()
# run_plant NAME TIER BASE PROSE COMMAND: the plant applied to a copy of the lab, the test run there;
# counts it in ran, and in failed unless the test failed.
run_plant() {
	local name=$1 tier=$2 base=$3 prose=$4 cmd=$5 copy out rc=0
	copy=$scratch/${name//\//-}
	if ((apply_only)); then
		# one copy for every plant, its files staged: a plant changed something when its files
		# differ from the index, or it added one; the index puts the copy back
		copy=$scratch/copy
		[[ -d $copy ]] || { lab_copy "$copy" && git -C "$copy" add -A; }
	else
		lab_copy "$copy"
	fi
	note "plant of $name ..."
	ran=$((ran + 1))
	{
		echo
		echo "## $name: $prose"
		echo "\$ $cmd"
	} >>"$log"
	if ! (cd "$copy" && bash -c "$cmd") </dev/null >>"$log" 2>&1; then
		echo "PLANT FAILED: the command exited non-zero" >>"$log"
		failed=$((failed + 1))
	elif ((apply_only)); then
		# against the index only (the copy's HEAD lacks what the lab had not committed): one look
		# at the copy names what the plant changed, and only that is put back for the next plant
		if ! restore_copy "$copy"; then
			echo "PLANT CHANGED NOTHING: it no longer matches the lab" >>"$log"
			failed=$((failed + 1))
		else
			echo "applies" >>"$log"
		fi
		return
	elif diff -rq --exclude=.git "$LAB_ROOT" "$copy" >/dev/null 2>&1; then
		echo "PLANT CHANGED NOTHING: it no longer matches the lab" >>"$log"
		failed=$((failed + 1))
	else
		echo "\$ ${base:+BASE=$base }scripts/check.sh -t $tier,slow -a $name" >>"$log"
		out=$(cd "$copy" && env -u LAB_RECORDS -u RECORD -u DRY_RUN ${base:+BASE=$base} scripts/check.sh -t "$tier,slow" -a "$name" 2>/dev/null </dev/null) || rc=$?
		echo "$out" >>"$log"
		# the test itself failed (the runner may run the base's series/tree before it)
		if ((rc != 1)) || ! awk -v n="$name" '$1 == "not" && $2 == "ok" && ($4 == n || $4 ~ "/" n "$") { f = 1 }
			END { exit !f }' <<<"$out"; then
			echo "NOT CAUGHT: the test did not fail with its plant (exit status $rc)" >>"$log"
			failed=$((failed + 1))
		fi
	fi
	rm -rf "$copy"
}

{
	echo "# The plants of the tests of tiers $tiers, regenerated by: tests/plants.sh -t $tiers${allow:+ -a $allow}"
	echo "# $(date -u '+%F %H:%M') UTC, commit $(git -C "$LAB_ROOT" rev-parse --short HEAD)$(git -C "$LAB_ROOT" diff --quiet HEAD || echo ' with changes'), $(nproc) CPUs."
	echo "# Each plant is applied to a scratch copy of the lab, and the test runs with the copy's runner"
	echo "# (scripts/check.sh -t TIER,slow -a TIER/NAME); the cache (\$LAB_CACHE) is the lab's. A test must fail."
} >"$log"
IFS=, read -ra tier_list <<<"$tiers"
for tier in "${tier_list[@]}"; do
	[[ -d $LAB_ROOT/tests/$tier ]] || die "-t $tier: no directory tests/$tier"
	for f in "$LAB_ROOT/tests/$tier"/*.sh; do
		name=$tier/$(basename "$f" .sh)
		if [[ -n $allow ]]; then
			IFS=, read -ra globs <<<"$allow"
			hit=0
			for g in "${globs[@]}"; do
				# shellcheck disable=SC2053 # the right side is a glob
				[[ $name == $g || ${name#*/} == $g ]] && hit=1
			done
			((hit)) || continue
		fi
		# Each "# Plant:" comment (with the comment lines that continue it) and the "# Plant command:"
		# after it, one plant a line: "prose<TAB>command" (no command: words only).
		plants=$(awk '
			function flush() { if (prose != "") print prose "\t" cmd; prose = ""; cmd = "" }
			/^# Plant: / { flush(); on = 1; prose = substr($0, 10); next }
			/^# Plant command: / { if (cmd != "") flush(); if (prose == "") prose = "(no Plant: line)"
				cmd = substr($0, 18); on = 0; next }
			on && /^# / && !/^# shellcheck / { prose = prose " " substr($0, 3); next }
			{ on = 0 }
			END { flush() }' "$f")
		if [[ -z $plants ]]; then
			words+=("$name: NO PLANT NAMED")
			continue
		fi
		base=''
		if [[ $tier != unit ]]; then
			base=$(first_base "$name")
			[[ -n $base ]] || { words+=("$name: on no base's list"); continue; }
		fi
		while IFS=$'\t' read -r prose cmd; do
			if [[ -z $cmd ]]; then
				words+=("$name: $prose")
				continue
			fi
			run_plant "$name" "$tier" "$base" "$prose" "$cmd"
		done <<<"$plants"
	done
done
{
	echo
	echo "# $ran plants run, $failed not caught or not applied."
	if ((${#words[@]})); then
		echo "# Tests whose plant is in words only (no Plant command yet):"
		printf '#   %s\n' "${words[@]}"
	fi
} >>"$log"
lab_record --base all --kind plant --name plants --clock none \
	--status $((failed > 0)) --what "plants of tests/$tiers${allow:+ ($allow)}: each defect put back in a scratch copy, its test failing" \
	--command "RECORD=1 tests/plants.sh ${args[*]}" "plant.log=$log"
note "plants: $ran run, $failed not caught or not applied; log: ${log#"$LAB_ROOT"/}"
[[ -z $run_dir ]] || results_done "$run_dir"
((failed == 0))
