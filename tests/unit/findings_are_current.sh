#!/bin/bash
# The tables of record of the findings (Documentation/findings/*.md) and of Documentation/regress.md
# are what the records give (make findings CHECK=1), and so are their pictures (SVG, drawn again
# to the byte): nobody edits a number of them by hand.
# Plant: a number of a finding's table changed by hand.
# Plant command: sed -i '0,/\*\*×\([0-9]\)/s//**×9\1/' Documentation/findings/freelist.md
# Plant: the pictures drawn with a random salt for their SVG ids, as matplotlib does by default:
# drawing them again changes them.
# Plant command: sed -i 's/{"svg.hashsalt": "lab", /{/' scripts/readout/findings.py
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

findings_are_current() {
	"$S/readout.py" findings --check
}

run_test findings_are_current "$@"
