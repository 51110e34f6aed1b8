# Common helpers for the lab scripts. Source it; do not run it. The helpers are in scripts/lib/,
# one file a concern:
#   config.sh    die(), note, step; the base and its config (config/<base>/, config/vm.conf), the
#                cache's paths; check_knobs
#   own-tree.sh  TREE=: a kernel checkout of the user's own, read only (sourced by config.sh)
#   procs.sh     processes and locks: wait_for, own_group, run_stoppable, the build and tree locks,
#                lab_make
#   registry.sh  the benchmark registry
#   patches.sh   the tree's commits, the series' patches and their keys (readout/patch_keys.py),
#                patched commits, scratch worktrees, the cover letter
#   guest.sh     the VM's command line, the clock of its runs, the config options its kernel
#                dropped
#   splats.sh    the splat judgement's callers (readout/splats.py: what a splat is, which are the
#                base's known ones)
#   pipeline.sh  the pipeline's stages (tree, kernel, bench, boot, judge, runs line, record) and
#                DRY_RUN; scripts/measure.sh runs them
#   regress-runs.sh  make regress's runs (sourced by scripts/regress.sh alone)
#   variants.sh  the lab's variants (lab/variants/index): names, parents, patches, commits
#   results.sh   where a measuring command's results land: its run directory in the cache
#                (records, RECORD=1: pipeline.sh's lab_record)
#   debs.sh      Debian packages of another suite, unpacked into the cache with a private apt
#                configuration (scripts/pahole.sh's)
# Sourcing it checks BASE and reads its config, nothing more: a script that starts work calls
# check_knobs itself (after own_group "$@", and after its options where they set knobs, as vm.sh's
# do), so that a bad knob is one line before anything runs.
# shellcheck shell=bash

# set -e reaches into command substitutions: `x=$(build; echo dir)` stops at a failed build
# instead of going on with its half output (bash resets errexit in $(...) otherwise). Bash still
# ignores errexit, inside the substitution too, where the command is a condition (`if x=$(f)`,
# `x=$(f) || return`, a function called so): a function that may run there checks each step that
# can fail itself, and a substitution passed as an argument (`cmd "$(f)"`) or read through
# `< <(f)` is never checked: assign it first (unit/measuring_targets_stop_when_a_build_fails).
shopt -s inherit_errexit

LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# --help (or -h) as a script's first argument, before anything is checked or run: a script whose
# getopts has -h prints its own usage; any other prints its header comment, the lines after #!.
if [[ ${BASH_SOURCE[1]:-} == "$0" && ${1:-} =~ ^(-h|--help)$ ]]; then
	if grep -qE '^while getopts :?[a-zA-Z:]*h[a-zA-Z:]* ' "$0"; then
		set -- -h
	else
		sed -n '2,${/^#/!q;/shellcheck/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
	fi
fi

# (shellcheck's source= paths are from the lab's top, where tests/unit/shellcheck.sh runs it.)
# shellcheck source=scripts/lib/config.sh
. "$LAB_ROOT/scripts/lib/config.sh"
# shellcheck source=scripts/lib/procs.sh
. "$LAB_ROOT/scripts/lib/procs.sh"
# shellcheck source=scripts/lib/registry.sh
. "$LAB_ROOT/scripts/lib/registry.sh"
# shellcheck source=scripts/lib/patches.sh
. "$LAB_ROOT/scripts/lib/patches.sh"
# shellcheck source=scripts/lib/guest.sh
. "$LAB_ROOT/scripts/lib/guest.sh"
# shellcheck source=scripts/lib/splats.sh
. "$LAB_ROOT/scripts/lib/splats.sh"
# shellcheck source=scripts/lib/pipeline.sh
. "$LAB_ROOT/scripts/lib/pipeline.sh"
# shellcheck source=scripts/lib/variants.sh
. "$LAB_ROOT/scripts/lib/variants.sh"
# shellcheck source=scripts/lib/results.sh
. "$LAB_ROOT/scripts/lib/results.sh"
# shellcheck source=scripts/lib/debs.sh
. "$LAB_ROOT/scripts/lib/debs.sh"
