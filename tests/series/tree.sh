#!/bin/bash
# The tree of the base: the pristine base as one commit and patches/<base>/ applied with git am
# (make tree). First in every base's list: on an empty cache the tests after it need the tree.
# Plant: a patch of patches/<base>/ that does not apply (tree.sh names it and stops).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

tree() {
	"$S/tree.sh"
}

run_test tree "$@"
