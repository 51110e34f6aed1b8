# What goes to the VM and what comes back: the guest's command line, the clock of a run, the
# config options its kernel dropped (part of scripts/lib.sh; the splats in its kernel messages are
# judged in scripts/lib/splats.sh).
# The runners the guest runs are in scripts/guest/; scripts/measure.sh starts them.
# shellcheck shell=bash

# bench's warm-up and measured seconds for each benchmark of the registry, in make bench and make
# compare (scripts/guest/suite.sh -W, -d; WARMUP and DURATION set them on the host)
# shellcheck disable=SC2034 # read by the scripts that source lib.sh
SUITE_WARMUP=1 SUITE_DURATION=3

# guest_command ARG...: one shell command line that runs ARG... with each argument intact, for
# vm.sh, which runs its words joined by spaces as the guest's command (make regress's -d list holds
# globs, and test_progs' subtest names hold spaces and shell characters such as '<').
guest_command() {
	local line
	printf -v line '%q ' "$@"
	printf '%s\n' "${line% }"
}

# runner_benchs USAGE ARG...: the options of a runner of scripts/guest/ that takes only benches,
# -b DIR each (as scripts/measure.sh passes them), in the array runner_dirs, in order; the runner
# then shifts them: shift $((OPTIND - 1)).
runner_benchs() {
	local opt usage=$1
	shift
	runner_dirs=()
	OPTIND=1
	while getopts :b: opt; do
		case $opt in
		b) runner_dirs+=("$OPTARG") ;;
		*) bad_option "$opt" "$OPTARG" "$usage" ;;
		esac
	done
}

# vm_clock LOG...: the clock of VM runs whose messages (vm.sh's stderr) are in LOG...: wall-kvm when
# vm.sh ran them under KVM (ACCEL=kvm, or a usable /dev/kvm and no note of its falling back to TCG).
vm_clock() {
	[[ ${ACCEL:-} == kvm ]] && { echo wall-kvm; return; }
	if [[ ${ACCEL:-} == tcg || ! -w ${LAB_KVM_DEV:-/dev/kvm} ]] || grep -qs 'using TCG' "$@"; then echo wall-tcg; else echo wall-kvm; fi
}

# config_dropped CONFIG FRAGMENT...: the options the fragments ask for (the last request of each,
# as olddefconfig reads a cat of them) that CONFIG does not have as asked, sorted; an option CONFIG
# does not mention is "not set".
config_dropped() {
	awk 'function val(line) {
		if (match(line, /^CONFIG_[A-Za-z0-9_]+=/)) { name = substr(line, 1, RLENGTH - 1); return substr(line, RLENGTH + 1) }
		if (match(line, /^# CONFIG_[A-Za-z0-9_]+ is not set$/)) { name = $2; return "n" }
		name = ""
	}
	FILENAME == final { v = val($0); if (name != "") got[name] = v; next }
	{ v = val($0); if (name != "") want[name] = v }
	END { for (n in want) if (want[n] != (n in got ? got[n] : "n")) print n }' \
		final="$1" "${@:2}" "$1" | sort
}
