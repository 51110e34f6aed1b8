#!/bin/bash
# The tables of record of the findings (Documentation/findings/*.md) and of Documentation/regress.md
# are what the records give (make findings CHECK=1): nobody edits a number of them by hand.
# Plant: a number of a finding's table changed by hand.
# Plant command: sed -i '0,/\*\*×\([0-9]\)/s//**×9\1/' Documentation/findings/freelist.md
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

findings_are_current() {
	"$S/findings.py" --check
}

run_test findings_are_current "$@"
