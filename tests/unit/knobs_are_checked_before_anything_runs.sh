#!/bin/bash
# Every knob is checked before anything runs: one line naming the knob and what it allows, no
# step started (no ">>>" line), non-zero exit. Sourcing lib.sh checks nothing: every lab command
# (an executable that sources scripts/lib.sh) calls check_knobs itself.
# Plant: a knob's error that no longer says what it allows (MEM).
# Plant command: sed -i 's/expected a size like 512M or 2G/bad size/' scripts/lib/config.sh
# Plant: LLVM's error no longer says what it allows.
# Plant command: sed -i 's/knob_bad LLVM "expected 0 or 1 (1:/knob_bad LLVM "not a toolchain (1:/' scripts/lib/config.sh
# Plant: a lab command that no longer checks the knobs.
# Plant command: sed -i '/^check_knobs$/d' scripts/compare/scaling.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# commands_check_knobs: every executable script of the lab that sources scripts/lib.sh calls
# check_knobs; names those that do not.
commands_check_knobs() {
	local f bad=0 n=0
	while read -r f; do
		grep -qE '^[^#]*\. ".*/lib\.sh"' "$f" || continue
		[[ $f != */tests/* || $f == */tests/plants.sh ]] || continue	# tests: tests/lib.sh
		n=$((n + 1))
		grep -qE '(^|[[:space:]])check_knobs$' "$f" && continue
		echo "${f#"$LAB_ROOT"/} sources scripts/lib.sh and does not call check_knobs"
		bad=$((bad + 1))
	done < <(find "$LAB_ROOT/scripts" "$LAB_ROOT/tests" "$LAB_ROOT/lab" "$LAB_ROOT/tools" -name '*.sh' -type f -perm -u+x | sort)
	echo "$n lab commands source scripts/lib.sh, $((n - bad)) checked: each calls check_knobs"
	((n > 20 && bad == 0))
}

# other_base_only: for the last base, a knob line with a benchmark that only the first base's registry
# has (BASE switches the registry before BENCHS is checked); nothing when there is none.
other_base_only() {
	local name
	name=$(comm -23 <(awk '$1 !~ /^#/ && NF { print $2 }' "$LAB_ROOT/config/$first/benchmarks" | sort -u) \
		<(BASE=$last bash -c '. "$1/lib.sh"; registry' - "$S" | awk '{ print $2 }' | sort -u) | head -n1)
	[[ -z $name ]] || echo "BASE=$last,BENCHS=$name|BENCHS=$name: unknown '$name'"
}

# no_kernel_llvm_base: LLVM=1 on the first base whose toolchain.conf names no KERNEL_LLVM (its
# kernels build with gcc only); nothing when every base names one.
no_kernel_llvm_base() {
	local b
	for b in $(lab_bases); do
		grep -qs '^KERNEL_LLVM=' "$LAB_ROOT/config/$b/toolchain.conf" && continue
		echo "BASE=$b,LLVM=1|LLVM=1: base $b names no KERNEL_LLVM"
		return
	done
}

knobs_are_checked_before_anything_runs() {
	local knob args want out first last
	first=$(lab_bases | head -n1) last=$(lab_bases | tail -n1)
	# "make arguments, comma-separated|the line it must print"; timeout: a knob let through must not run a whole bench.
	while IFS='|' read -r knob want; do
		[[ -n $knob ]] || continue
		IFS=, read -ra args <<<"$knob"
		out=$(cd "$LAB_ROOT" && timeout 60 env -u ACCEL make -s bench "${args[@]}" 2>&1) &&
			{ echo "make bench $knob passed"; return 1; }
		out=$(grep -vE '^make(\[[0-9]+\])?: \*\*\*' <<<"$out")
		echo "make bench $knob: $out"
		[[ $(wc -l <<<"$out") == 1 && $out == "error: $want"* ]] ||
			{ echo "expected one line 'error: $want...'"; return 1; }
	done <<KNOBS
ICOUNT=yes|ICOUNT=yes: expected 0 or 1
RECORD=yes|RECORD=yes: expected 0 or 1
DRY_RUN=yes|DRY_RUN=yes: expected 0 or 1
CPUS=0|CPUS=0: expected
CPUS=x|CPUS=x: expected
MAXCPUS=256|MAXCPUS=256: expected possible CPUs, $VM_CPUS (the online CPUs) to 255
MAXCPUS=1|MAXCPUS=1: expected
POSSIBLE=2 256|POSSIBLE=2 256: '256': expected
POSSIBLE=1|POSSIBLE=1: '1': expected
BENCHS=trigger nosuch|BENCHS=trigger nosuch: unknown 'nosuch'
BENCHS=trig-bse|BENCHS=trig-bse: unknown 'trig-bse'
TIMEOUT=10m|TIMEOUT=10m: expected a positive number of seconds
WHOLE_LIMIT=1h|WHOLE_LIMIT=1h: expected a positive number of seconds
SILENCE=-1|SILENCE=-1: expected
MEM=2GB|MEM=2GB: expected a size like 512M or 2G
VMS=3|VMS=3: expected 1 (one VM at a time) or 2
ACCEL=xen|ACCEL=xen: expected kvm, tcg
LLVM=2|LLVM=2: expected 0 or 1
LLVM=yes|LLVM=yes: expected 0 or 1
$(no_kernel_llvm_base)
ICOUNT=1,CPUS=2|CPUS=2: ICOUNT=1 runs one online CPU
BASE=0.0|BASE=0.0: expected one of: $(lab_bases | xargs)
BASE=../$first|BASE=../$first: expected one of: $(lab_bases | xargs)
$(other_base_only)
KNOBS
	# And vm.sh on its own, as compare.sh and check-debug.sh start it.
	expect_fail '^error: ICOUNT=yes: expected 0 or 1$' env ICOUNT=yes "$S/vm.sh" -- true
	commands_check_knobs
}

run_test knobs_are_checked_before_anything_runs "$@"
