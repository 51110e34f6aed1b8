#!/bin/bash
# A lab variant (lab/variants/index, scripts/lib/variants.sh) for the harnesses of tools/testing/,
# which call the lab's commands rather than source its library:
#   scripts/lab-variant.sh steps NAME [VERSION]   the way from its root (base or series) to NAME,
#                                                 one name a line (VERSION: the kernel's, default BASE)
#   scripts/lab-variant.sh patch NAME DIR         the patch that makes NAME of its parent, whose
#                                                 percpu_freelist.c is in DIR
#   scripts/lab-variant.sh commit NAME [REV]      the tree's commit of NAME (its root: the base, or
#                                                 the series at REV, default HEAD)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
check_knobs

usage="usage: scripts/lab-variant.sh steps NAME [VERSION] | patch NAME DIR | commit NAME [REV]"
case ${1:-}:$# in
steps:2 | steps:3) variant_steps "${@:2}" ;;
patch:3) variant_patch "${@:2}" ;;
commit:2 | commit:3) variant_commit "${@:2}" ;;
*) die "$usage" ;;
esac
