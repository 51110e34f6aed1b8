#!/bin/bash
# The lab's shell calls its Python one way: scripts/readout.py SUBCOMMAND (readout/cli.py), not a
# script of its own per module (there were eleven seven-line ones, scripts/records.py, matrix.py,
# ..., each with its own main() tail). scripts/readout.py is the one Python file of scripts/; an
# old name that stays is a link to it (readout/cli.py's OLD_NAMES says for whom), and no caller of
# the lab (scripts, tests, .ci/run, the Makefile, the harnesses) names one.
# Plant: a seven-line script of a module again.
# Plant command: printf '#!/usr/bin/python3\nimport sys\n\nfrom readout import stats\n\nsys.exit(stats.main(sys.argv[1:], "stats.py"))\n' >scripts/stats.py && chmod +x scripts/stats.py
# Plant: a caller of an old name.
# Plant command: sed -i 's|"$LAB_ROOT/scripts/readout.py" matrix --recorder|"$LAB_ROOT/scripts/matrix.py" --recorder|' scripts/record-evidence.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

python_called_one_way() {
	local f files=() links=() bad=0 callers
	for f in "$S"/*.py; do
		if [[ -L $f ]]; then
			links+=("${f##*/}")
			[[ $(readlink "$f") == readout.py ]] || { echo "${f#"$LAB_ROOT"/} is a link, not to readout.py"; bad=1; }
		else
			files+=("${f##*/}")
		fi
	done
	echo "scripts/*.py: ${files[*]}; links to readout.py: ${links[*]:-none}"
	[[ ${files[*]} == readout.py ]] || { echo "expected scripts/readout.py alone, found: ${files[*]}"; bad=1; }
	# each FILE:LINE:PATH of a Python script named in a caller (but the kernel's scripts/bpf_doc.py,
	# which bpf_lru_list's kbench.sh takes out of the base's tree for libbpf's build)
	# shellcheck disable=SC2016 # $S and $(S), as the callers write them
	callers=$(cd "$LAB_ROOT" || exit; grep -rnoE '(\bscripts|\$S|\$\(S\))/[a-z_]+\.py\b' scripts tests tools .ci Makefile \
		--include='*.sh' --include='run' --include='Makefile' |
		grep -vE ':(scripts|\$S|\$\(S\))/readout\.py$|^tests/unit/python_called_one_way\.sh:|^tools/testing/bpf_lru_list/kbench\.sh:[0-9]+:scripts/bpf_doc\.py$' || true)
	[[ -z $callers ]] || { echo "callers of another Python script than scripts/readout.py:"; echo "$callers"; bad=1; }
	((bad == 0))
}

run_test python_called_one_way "$@"
