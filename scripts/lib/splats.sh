# The splat judgement's shell side (part of scripts/lib.sh): it lives once, in
# scripts/readout/splats.py (what a splat is, how a VM run's log shows them, which of them the
# base's config/<base>/known-splats names), and these call it. scripts/measure.sh -J splats judges
# a run with them (make check-debug, scripts/nmi-stackmap.sh).
# shellcheck shell=bash

# splats_guest_tail: the shell the guest runs after the runner, its status in $rc: the splats of
# its dmesg, numbered (`grep -n` of splats.py's pattern), between two marker lines, then exit $rc.
# The console has the kernel's messages printed up to the guest's power-off; dmesg also those below
# loglevel=5.
splats_guest_tail() {
	local re
	re=$("$LAB_ROOT/scripts/readout.py" judge --pattern)
	printf '%s' "dmesg > /tmp/dmesg; echo \"--- dmesg splats ---\"; grep -nE -A25 $(guest_command "$re") /tmp/dmesg; echo \"--- end ---\"; exit \$rc"
}

# judge_splats LOG...: the judgement of one VM run whose logs are LOG... (its output, and the
# kernel's messages): prints "SPLATS UNKNOWN", how many splats it showed and how many of them
# config/<base>/known-splats does not name; each unknown one goes to stderr as "unknown splat: ...".
judge_splats() {
	"$LAB_ROOT/scripts/readout.py" judge "$BASE_CONFIG/known-splats" "$@"
}
