#!/bin/bash
# The Python unit tests of the lab's scripts and of the harnesses: every test_*.py of the package
# scripts/readout/, run as a module from scripts/ (python3 -m readout.test_NAME), and of
# tools/testing/*/, run from its directory (it imports the module beside it); one KTAP line each.
# Plant: make compare's significance mark inverted (stats.mark() printing "~" for a significant
# difference).
# Plant command: sed -i 's/return "~" if p >= ALPHA else ""/return "~" if p < ALPHA else ""/' scripts/readout/stats.py
# Plant: the cover letter of make series and make mbox without its Cc lines.
# Plant command: sed -i 's/ + ("\\n\\n" + cc if cc else "")$//' scripts/readout/cover_letter.py
# Plant: patch_keys.patch_key hashing the subject and message without the blank line between them,
# which a commit's message has (commit_key; test_patch_keys).
# Plant command: sed -i 's|subject.rstrip(b"\\n") + b"\\n\\n" + message|subject.rstrip(b"\\n") + b"\\n" + message|' scripts/readout/patch_keys.py
# Plant: splats.log_splats counting a splat twice when both the console and dmesg have it (test_splats).
# Plant command: sed -i 's|return sorted({line for line in lines if MESSAGE.match(line) and SPLAT_RE.search(line)})|return sorted([line for line in lines if MESSAGE.match(line) and SPLAT_RE.search(line)])|' scripts/readout/splats.py
# Plant: make regress's resume loop not running a test lost in a dead VM again (regress_results.py
# marks failed without the lost ones; test_regress_results).
# Plant command: sed -i 's/if what == "lost" or (what == "end" and end_rc(rest) != 0)/if what == "end" and end_rc(rest) != 0/' scripts/readout/regress_results.py
# Plant: a benchmark whose bench failed read from its raw output as one without a summary line, not
# as FAILED (benchout.py raw_results; test_benchout).
# Plant command: sed -i 's/^    if rc != 0:$/    if rc < 0:/' scripts/readout/benchout.py
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

mapfile -t files < <(cd "$LAB_ROOT" && find scripts/readout tools/testing -name 'test_*.py' | sort)
# The files run at once, as many as there are CPUs (each in its own directory, its output and status
# in the scratch directory); their lines are printed in order.
# shellcheck disable=SC2016 # the inner bash expands $1, $2 and $3
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -I{} bash -c '
	out=$1/$(tr / - <<<"$2") module=${2#scripts/} module=${module%.py}
	case $2 in
	scripts/*) (cd "$3/scripts" && exec /usr/bin/python3 -m "${module//\//.}") ;;
	*) (cd "$3/$(dirname "$2")" && exec /usr/bin/python3 "$(basename "$2")") ;;
	esac >"$out.log" 2>&1
	echo $? >"$out.rc"' - "$scratch" {} "$LAB_ROOT"
ktap_print_header
ktap_set_plan "${#files[@]}"
for f in "${files[@]}"; do
	out=$scratch/$(tr / - <<<"$f")
	if [[ $(cat "$out.rc") == 0 ]]; then
		ktap_test_pass "$f"
	else
		sed 's/^/# /' "$out.log"
		ktap_test_fail "$f"
	fi
done
ktap_finished
