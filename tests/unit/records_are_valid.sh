#!/bin/bash
# Every record (records/<base>/<kind>/<id>/) is what its meta.json says, in the schema of
# scripts/readout.py records: the fields and their forms, its directory named after its base, kind and id,
# a lab commit of this repository, the files its kind holds, and no file that meta.json does not
# list (a record is written by a tool, never edited by hand), and no code (a record names the lab
# command that made it: readout.py records write refuses a script or a C file, and check finds one).
# Plant: a file added to a record by hand.
# Plant command: echo 'icount,series,3,64,hashmap,full-update-full,9.9,M/s' >records/7.3/compare/20261202-063600-7.3-freelist-v3-icount-64/more.csv
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# Plant: the record checker taking code for data again.
# Plant command: sed -i 's/^    if code and not meta.get("code_kept", "").strip():$/    if False:/' scripts/readout/records.py
records_are_valid() {
	"$S/readout.py" records check
	# a new record with a script in it is refused, and none is left behind
	printf '#!/bin/bash\necho measured\n' >"$scratch/probe.sh"
	echo "measured" >"$scratch/plant.log"
	LAB_RECORDS=$scratch/records expect_fail "code in a record: probe.sh" "$S/readout.py" records write --kind plant \
		--name code --what "a plant run by a script of its own" --command "bash probe.sh" --clock none \
		"$scratch/plant.log" "$scratch/probe.sh"
	[[ -z $(find "$scratch/records" -mindepth 3 -maxdepth 3 2>/dev/null) ]] || { echo "a refused record was left behind"; return 1; }
}

run_test records_are_valid "$@"
