#!/bin/bash
# The evidence table (EVIDENCE.md) follows the records: in a scratch copy of the lab, a record's data
# changed (a trial of the series in a compare record; an evidence record's exit status) changes
# its cell, and only its cell.
# Plant: make matrix printing EVIDENCE.md back as it is instead of what the records give.
# Plant command: sed -i 's/^    page = m.page()$/    page = open(os.path.join(args.root, args.output)).read()/' scripts/readout/matrix.py
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

matrix_follows_records() {
	local copy=$scratch/lab before after compare evidence changed
	copy_matrix_lab "$copy"
	before=$(env -u LAB_RECORDS "$copy/scripts/readout.py" matrix --print) || return 1
	# the newest 7.3 compare record with icount trials of the full map at 64 possible CPUs: its
	# series' trials halved; and the newest 7.3 checkpatch record failed
	compare=$(grep -l '^icount,series,[0-9]*,64,hashmap,full-update-full,' "$copy"/records/7.3/compare/*/trials.csv | tail -n1)
	evidence=$(find "$copy"/records/7.3/evidence -maxdepth 1 -name "*-checkpatch" | sort | tail -n1)
	[[ -n $compare && -n $evidence ]] || { echo "no 7.3 record of the full map at 64 possible CPUs, or of checkpatch"; return 1; }
	awk -F, -v OFS=, '$1 == "icount" && $2 == "series" && $4 == 64 && $6 == "full-update-full" { $7 /= 2 } 1' \
		"$compare" >"$compare.new" && mv "$compare.new" "$compare"
	sed -i 's/^ "status": 0,$/ "status": 1,/' "$evidence/meta.json"
	after=$(env -u LAB_RECORDS "$copy/scripts/readout.py" matrix --print) || return 1
	changed=$(diff <(echo "$before") <(echo "$after") | grep -c '^>' || true)
	diff <(echo "$before") <(echo "$after") | grep "^>" | grep -o "| [^|]*|$" || true
	# row 8's 7.3 cell (the last): its ratio halved with the series' trials
	local r0 r1
	r0=$(grep '^| 8\. ' <<<"$before" | grep -o '| \[×[0-9.]*\]\[[0-9]*\] |$' | grep -o '×[0-9.]*' | tr -d '×')
	r1=$(grep '^| 8\. ' <<<"$after" | grep -o '| \[×[0-9.]*\]\[[0-9]*\] |$' | grep -o '×[0-9.]*' | tr -d '×')
	if [[ -z $r0 || -z $r1 ]] || ! awk -v a="$r0" -v b="$r1" 'BEGIN { d = a / 2 - b; exit !(d < 0.02 && d > -0.02) }'; then
		echo "row 8's 7.3 cell did not follow its record (the series' trials halved): ×$r0 -> ×$r1"
		return 1
	fi
	# row 2's 7.3 cell: ✗, linking the checkpatch record
	local ref
	ref=$(grep '^| 2\. ' <<<"$after" | sed -n 's/.*| \[✗ (exit 1)\]\[\([0-9]*\)\] |$/\1/p')
	if [[ -z $ref ]] || ! grep -q "^\[$ref\]: records/7.3/evidence/[^ ]*-checkpatch/ " <<<"$after"; then
		echo "row 2's 7.3 cell did not follow its record (exit status 1)"
		return 1
	fi
	((changed == 2)) || { echo "$changed rows changed, expected 2"; return 1; }
}

run_test matrix_follows_records "$@"
