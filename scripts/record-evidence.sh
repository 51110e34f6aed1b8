#!/bin/bash
# Record one row of README.md's evidence table (make matrix) for BASE: run the lab command that
# config/matrix gives the row (its `evidence` source) and write its output, under a short header,
# to the row's file, Documentation/results/evidence/<base>/<row>.log:
#   # record-evidence: ROW
#   # command: BASE=<base> COMMAND
#   # date: <UTC>
#   # lab commit: <HEAD of this repository: the commit the row was measured at>
#   <the command's output, stdout and stderr>
#   # exit status: N
#   scripts/record-evidence.sh ROW      (BASE=<base>, default config/default-base)
# The tree is made first (scripts/tree.sh); the series must be committed, since the record names
# HEAD. Exits with the command's status; an interrupted run leaves no record.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"

usage="usage: BASE=<base> scripts/record-evidence.sh ROW   (ROW: a row of config/matrix with an evidence source)"
while getopts :h opt; do
	case $opt in
	h) echo "$usage"; exit 0 ;;
	*) die "-$OPTARG: no such option ($usage)" ;;
	esac
done
shift $((OPTIND - 1))
(($# == 1)) || die "expected one ROW ($usage)"
row=$1

# The row's file and command, from config/matrix (matrix.py names a row or base it does not know).
recorder=$("$LAB_ROOT/scripts/matrix.py" --recorder "$row" "$BASE") || exit 1
file=${recorder%%$'\t'*} cmd=${recorder#*$'\t'}
[[ -z $(git -C "$LAB_ROOT" status --porcelain -- "patches/$BASE") ]] ||
	die "patches/$BASE has uncommitted changes: commit them first (the record names HEAD as the commit measured)"
commit=$(git -C "$LAB_ROOT" rev-parse HEAD)

start=$SECONDS
"$LAB_ROOT/scripts/tree.sh"
export BASE
out=$LAB_ROOT/$file
mkdir -p "$(dirname "$out")"
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
{
	echo "# record-evidence: $row"
	echo "# command: BASE=$BASE $cmd"
	echo "# date: $(date -u '+%F %H:%M UTC')"
	echo "# lab commit: $commit"
} >"$tmp"
note "$row on $BASE: $cmd"
set +e
(cd "$LAB_ROOT" && bash -c "$cmd") 2>&1 | tee -a "$tmp"
rc=${PIPESTATUS[0]}
set -e
echo "# exit status: $rc" >>"$tmp"
mv "$tmp" "$out"
note "$row on $BASE: exit status $rc, $((SECONDS - start))s; wrote $file (git add it, then make matrix)"
exit "$rc"
