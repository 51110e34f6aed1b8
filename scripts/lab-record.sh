#!/bin/bash
# The lab's one record helper, lab_record (scripts/lib/pipeline.sh), for the commands that do not
# source the lab's library: the harness of tools/testing/pcpu_freelist (run.sh mt, count) and
# .ci/run. With RECORD=1 it writes ARG... as a record, records/<base>/<kind>/<id>/ (scripts/readout.py records
# write ARG...: its options, scripts/readout.py records write -h), and names it on stderr; without, it
# does nothing. A dry run (DRY_RUN=1) prints the command.
#   [RECORD=1] scripts/lab-record.sh -- ARG...
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[[ ${1:-} == -- ]] ||
	die "${1:-no arguments}: expected -- and the arguments of scripts/readout.py records write (usage: [RECORD=1] scripts/lab-record.sh -- ARG...)"
shift
check_knobs
lab_record "$@"
