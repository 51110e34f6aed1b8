# The splat judgement, the one place it lives (part of scripts/lib.sh): what a KCSAN report, a
# lockdep report, a BUG or a WARN starts with, how a VM run's log shows them, which of them the
# base's config/<base>/known-splats names. scripts/measure.sh -J splats judges a run with it (make
# check-debug, scripts/nmi-stackmap.sh); scripts/matrix.py reads check-debug's records with it.
# shellcheck shell=bash

# What a KCSAN report, a lockdep report, a BUG or a WARN starts with in the kernel's messages.
SPLAT_RE='BUG:|WARNING:|possible recursive locking|possible circular locking|inconsistent lock state|sleeping function called from invalid context|INFO: task .* blocked'

# splats_guest_tail: the shell the guest runs after the runner, its status in $rc: the splats of
# its dmesg, numbered (`grep -n`), between two marker lines, then exit $rc. The console has the
# kernel's messages printed up to the guest's power-off; dmesg also those below loglevel=5.
splats_guest_tail() {
	printf '%s' "dmesg > /tmp/dmesg; echo \"--- dmesg splats ---\"; grep -nE -A25 $(guest_command "$SPLAT_RE") /tmp/dmesg; echo \"--- end ---\"; exit \$rc"
}

# log_splats LOG...: the first lines of the splats in a VM run's logs, each once: kernel messages
# ("[ secs] ..."), from the console or from a `grep -n` of dmesg ("N:[ secs] ..."), that match
# SPLAT_RE.
log_splats() {
	cat -- "$@" | tr -d '\r' | sed -E 's/^[0-9]+[:-]//' | RE=$SPLAT_RE awk '/^\[ *[0-9]+\.[0-9]+\] / && $0 ~ ENVIRON["RE"]' | sort -u
}

# unknown_splats KNOWN: of the splat lines on stdin, those that contain no entry of the list KNOWN
# (config/<base>/known-splats), in order.
unknown_splats() {
	KNOWN=$(list_entries "$1") awk 'BEGIN { n = split(ENVIRON["KNOWN"], k, "\n") }
		{ for (i = 1; i <= n; i++) if (index($0, k[i])) next; print }'
}

# judge_splats LOG...: the judgement of one VM run whose logs are LOG... (its output, and the
# kernel's messages): prints "SPLATS UNKNOWN", how many splats it showed and how many of them
# config/<base>/known-splats does not name; each unknown one goes to stderr as "unknown splat: ...".
judge_splats() {
	local firsts unknown
	firsts=$(log_splats "$@")
	unknown=$(unknown_splats "$BASE_CONFIG/known-splats" <<<"$firsts")
	[[ -z $unknown ]] || sed 's/^/unknown splat: /' <<<"$unknown" >&2
	echo "$(grep -c . <<<"$firsts" || true) $(grep -c . <<<"$unknown" || true)"
}
