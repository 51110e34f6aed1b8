#!/bin/bash
# The VM's defaults (CPUS, MAXCPUS, MEM, TIMEOUT, SILENCE) are config/vm.conf's: no script writes a
# number of its own as the default of one of these knobs (five scripts once did, each its own).
# No script prints its usage by cutting lines out of its own header by number (`sed -n '4,13p'
# "$0"`: one more comment line above them and -h printed the wrong lines).
# Plant: vm.sh with its own default memory again.
# Plant command: sed -i 's/mem=\${MEM:-}/mem=${MEM:-2G}/' scripts/vm.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

lab_facts_defined_once() {
	local bad=0 hits
	hits=$({ cd "$LAB_ROOT" && grep -nE '^[^#]*\$\{(CPUS|MAXCPUS|MEM|TIMEOUT|SILENCE):-[0-9]' scripts/*.sh scripts/*/*.sh tests/*/*.sh; } || true)
	[[ -z $hits ]] || { echo "defaults written out, not config/vm.conf's:"; echo "$hits"; bad=1; }
	hits=$({ cd "$LAB_ROOT" && grep -nE "sed -n '?[0-9]+,[0-9]+.*(\\\$0|BASH_SOURCE)" scripts/*.sh scripts/*/*.sh tests/*.sh tests/*/*.sh; } || true)
	[[ -z $hits ]] || { echo "usage cut out of a header by line numbers:"; echo "$hits"; bad=1; }
	((bad == 0))
}

run_test lab_facts_defined_once "$@"
