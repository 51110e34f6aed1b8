#!/bin/bash
# The evidence table (EVIDENCE.md) does not depend on the wording of any page: in a scratch copy of the lab,
# every page of Documentation/ (findings, lab.md, regress.md, the archive) is reworded, its numbers
# changed, and make matrix gives the same table, since it reads records only.
# Plant: the reason of a "not measured" cell taken from the first line of the page it links.
# Plant command: sed -i 's|return NOT_MEASURED, source.selector, source.args$|return NOT_MEASURED, source.selector, open(os.path.join(self.root, source.selector)).readline().strip()|' scripts/readout/matrix.py
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

matrix_ignores_prose() {
	local copy=$scratch/lab before after pages
	copy_matrix_lab "$copy"
	before=$(env -u LAB_RECORDS "$copy/scripts/readout.py" matrix --print) || return 1
	pages=$(find "$copy/Documentation" -name '*.md' | wc -l)
	find "$copy/Documentation" -name '*.md' -exec sed -i -e '1i Reworded.' -e 's/\<the\>/this/g; s/\<is\>/was/g; s/[0-9]/7/g' {} +
	echo "$pages pages of Documentation/ reworded, their digits changed"
	after=$(env -u LAB_RECORDS "$copy/scripts/readout.py" matrix --print) || return 1
	diff <(echo "$before") <(echo "$after") || { echo "the table changed with the wording of a page"; return 1; }
}

run_test matrix_ignores_prose "$@"
