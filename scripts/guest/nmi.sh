#!/bin/bash
# The guest runner of scripts/nmi-stackmap.sh (scripts/measure.sh -S nmi_stackmap -J splats RUNNER
# nmi): tools/testing/nmi_stackmap for SECONDS, the console quiet while sysrq 'l' prints its
# backtraces; its splats are judged on the host (scripts/lib/splats.sh).
#   scripts/guest/nmi.sh -s SELFTESTS_DIR -N NMI_STACKMAP SECONDS
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
check_knobs
usage="usage: scripts/guest/nmi.sh -s SELFTESTS_DIR -N NMI_STACKMAP SECONDS"
tool=''
while getopts :s:N: opt; do
	case $opt in
	s) ;;	# the selftests it was built against
	N) tool=$OPTARG ;;
	*) bad_option "$opt" "$OPTARG" "$usage" ;;
	esac
done
shift $((OPTIND - 1))
if (($# != 1)) || [[ -z $tool ]] || ! positive "$1"; then
	die "$usage"
fi
dmesg -n 1
exec "$tool" -d "$1"
