#!/bin/bash
# Record one row of the evidence table (EVIDENCE.md) (make matrix) for BASE: run the lab command that
# config/matrix gives the row (its `evidence` source) and write its output and exit status as a
# record, records/<base>/evidence/<date>-<row>/ (scripts/readout.py records: output.log, and meta.json with
# the command, the date, the lab commit and the series measured):
#   scripts/record-evidence.sh ROW      (BASE=<base>, default config/default-base)
# The tree is made first (scripts/tree.sh); the series must be committed, since the record names
# HEAD. Exits with the command's status; an interrupted run leaves no record.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs

usage="usage: BASE=<base> scripts/record-evidence.sh ROW   (ROW: a row of config/matrix with an evidence source)"
while getopts :h opt; do
	case $opt in
	h) echo "$usage"; exit 0 ;;
	*) bad_option "$opt" "$OPTARG" "$usage" ;;
	esac
done
shift $((OPTIND - 1))
(($# == 1)) || die "expected one ROW ($usage)"
row=$1

# The row's command, from config/matrix (readout.py matrix names a row or base it does not know).
cmd=$("$LAB_ROOT/scripts/readout.py" matrix --recorder "$row" "$BASE") || exit 1
changed=$(git -C "$LAB_ROOT" status --porcelain -- "patches/$BASE")
[[ -z $changed ]] ||
	die "patches/$BASE has uncommitted changes: commit them first (the record names HEAD as the commit measured)"

start=$SECONDS
"$LAB_ROOT/scripts/tree.sh"
export BASE
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
note "$row on $BASE: $cmd"
set +e
(cd "$LAB_ROOT" && bash -c "$cmd") 2>&1 | tee "$tmp/output.log"
rc=${PIPESTATUS[0]}
set -e
# its purpose is the record: RECORD=1 whatever the environment says (lab_record, scripts/lib/pipeline.sh)
RECORD=1 lab_record --kind evidence --name "$row" --clock none --status "$rc" \
	--what "evidence row $row on $BASE: $cmd" --command "BASE=$BASE $cmd" "$tmp/output.log"
note "$row on $BASE: exit status $rc, $((SECONDS - start))s; then make matrix"
exit "$rc"
