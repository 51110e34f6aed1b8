#!/bin/bash
# Every record (records/<base>/<kind>/<id>/) is what its meta.json says, in the schema of
# scripts/records.py: the fields and their forms, its directory named after its base, kind and id,
# a lab commit of this repository, the files its kind holds, and no file that meta.json does not
# list (a record is written by a tool, never edited by hand).
# Plant: a file added to a record by hand.
# Plant command: echo 'icount,series,3,64,hashmap,full-update-full,9.9,M/s' >records/7.3/compare/20261202-063600-7.3-freelist-v3-icount-64/more.csv
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

records_are_valid() {
	"$S/records.py" check
}

run_test records_are_valid "$@"
