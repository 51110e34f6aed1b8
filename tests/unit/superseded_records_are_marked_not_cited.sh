#!/bin/bash
# A record that a newer record of the same base, kind, name and command replaces is marked so by
# the tool (its file superseded-by, the newer record's id), not deleted: a second write of the
# same command marks the first; every such record of records/ is marked; and README.md,
# EVIDENCE.md, Documentation/lab.md, Documentation/regress.md and the findings cite none of them.
# Plant: write() not marking what it replaces.
# Plant command: sed -i 's/^    mark_superseded(root, base, kind)$/    pass/' scripts/readout/records.py
# Plant: a findings page citing a superseded record.
# Plant command: sed -i 's|7.3/check-debug/20261207-074922-check-debug, v6 with|7.3/check-debug/20261207-074336-check-debug, v6 with|' Documentation/findings/freelist.md
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

superseded_records_are_marked_not_cited() {
	local r1 r2 unmarked cited id f
	echo measured >"$scratch/plant.log"
	export LAB_RECORDS=$scratch/records
	r1=$("$S/readout.py" records write --kind plant --name twice --what "one measurement" --command "cmd A" \
		--clock none "$scratch/plant.log")
	r2=$("$S/readout.py" records write --kind plant --name twice --what "the same, again" --command "cmd A" \
		--clock none "$scratch/plant.log")
	"$S/readout.py" records write --kind plant --name twice --what "another command" --command "cmd B" \
		--clock none "$scratch/plant.log" >/dev/null
	[[ $(cat "$r1/superseded-by" 2>/dev/null) == "$(basename "$r2")" ]] ||
		{ echo "the first record of 'cmd A' is not marked superseded by the second"; return 1; }
	[[ ! -e $r2/superseded-by ]] || { echo "the newest record of 'cmd A' is marked superseded"; return 1; }
	"$S/readout.py" records check "$r1" "$r2"
	unset LAB_RECORDS
	# every record of the lab that a newer one replaces is marked (readout.py records supersede marks none)
	unmarked=$(cp -r "$LAB_ROOT/records" "$scratch/lab-records" &&
		LAB_RECORDS=$scratch/lab-records "$S/readout.py" records supersede)
	[[ -z $unmarked ]] || { echo "records replaced by newer ones but not marked:"; echo "$unmarked"; return 1; }
	cited=
	while read -r f; do
		id=$(basename "$(dirname "$f")")
		cited+=$(cd "$LAB_ROOT" && { grep -l -- "$id" README.md EVIDENCE.md Documentation/lab.md \
			Documentation/regress.md Documentation/findings/*.md || true; } | sed "s|\$|: $id|")
	done < <(find "$LAB_ROOT/records" -name superseded-by)
	[[ -z $cited ]] || { echo "superseded records cited:"; echo "$cited"; return 1; }
}

run_test superseded_records_are_marked_not_cited "$@"
