#!/bin/bash
# Print one of the lab's paths (TREE, LAB_CACHE, KERNELS, ...), for the Makefile and for humans.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
check_knobs
[[ $# == 1 && $1 =~ ^[A-Z_]+$ && -n ${!1:-} ]] || die "usage: lab-path.sh TREE|LAB_CACHE|KERNELS|RESULTS|BASE_DIR"
echo "${!1}"
