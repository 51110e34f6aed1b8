#!/bin/bash
# EVIDENCE.md, the evidence table, is what the records give (make matrix CHECK=1): each cell's
# number is its record's, and a cell shows a number only while the series' patches its row depends on are,
# by git patch-id, those its record measured (its meta.json); otherwise it says "stale".
# Plant: a number of the table changed in EVIDENCE.md and not in the record that holds it.
# Plant command: sed -i '0,/| \[×\([0-9]\)/s//| [×9\1/' EVIDENCE.md
# Plant: a line of code of 7.3's freelist patch changed: the 7.3 cells measured before it are stale,
# and the table still gives their numbers.
# Plant command: sed -i 's/BITS_PER_BYTE), GFP_KERNEL);$/BITS_PER_BYTE), GFP_ATOMIC);/' patches/7.3/*/*-bpf-percpu_freelist-*.patch
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

matrix_is_current() {
	"$S/readout.py" matrix --check
}

run_test matrix_is_current "$@"
