#!/bin/bash
# make check-debug and make nmi judge their kernels' splats in one place: both run through
# scripts/measure.sh -J splats, whose judge is scripts/readout/splats.py (readout.py judge, called by
# scripts/lib/splats.sh), so a splat that config/<base>/known-splats does not name fails both, with
# the same "unknown splat:" line, and one it names fails neither; no other file of the lab, shell or
# Python, defines the pattern of a splat or reads splats from a log, and only splats.sh has the guest
# grep its dmesg for them. On a scratch copy of the lab with a tree of one commit, whose tree.sh,
# kernel.sh, bench-build.sh and nmi_stackmap's build.sh are fakes and whose vm.sh prints a run of
# nmi_stackmap and, as the kernel's messages, the splat of SPLAT.
# Plant: make nmi not judging its splats (its measure.sh call without -J splats).
# Plant command: sed -i 's/ -S nmi_stackmap -J splats / -S nmi_stackmap /' scripts/nmi-stackmap.sh
# Plant: check-debug reading the splats from the guest's output only, not the kernel's messages.
# Plant command: sed -i 's/^\tjudged=\$(judge_splats "\$1" "\$1.err")$/\tjudged=$(judge_splats "$1")/' scripts/lib/pipeline.sh
# Plant: a second copy of the splat's pattern, in Python (matrix.py once read splats its own way).
# Plant command: printf '\nSPLAT_RE = re.compile(r"BUG:|WARNING:")\n' >>scripts/readout/matrix.py
# Plant: the shell's own reading of splats again, as scripts/lib/splats.sh had before it called splats.py.
# Plant command: printf '\nlog_splats() {\n\tgrep -hE "BUG:|WARNING:" "$@"\n}\n' >>scripts/lib/splats.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# fake_lab DIR: a copy of the lab in DIR with fakes for what builds or boots
fake_lab() {
	local lab=$1 f
	mkdir -p "$lab/cache" "$lab/tools/testing/nmi_stackmap"
	cp -a "$LAB_ROOT/Makefile" "$LAB_ROOT/scripts" "$LAB_ROOT/config" "$LAB_ROOT/lab" "$lab/"
	for f in scripts/deps.sh scripts/tree.sh scripts/kernel.sh scripts/bench-build.sh tools/testing/nmi_stackmap/build.sh; do
		printf '#!/bin/bash\necho %q\n' "$lab/built" >"$lab/$f"
	done
	# vm.sh [options] -- COMMAND-LINE: a run of nmi_stackmap on stdout, the kernel's messages (with
	# the splat SPLAT, if set) on stderr
	cat >"$lab/scripts/vm.sh" <<'VM'
#!/bin/bash
printf '%s\r\n' "# 3.0 s: task on CPU 1 (100 loops, 50 deletes), sysrq 'l' from CPU 0, 30 NMIs" \
	'# nmi: 30 bpf_get_stackid() (10/s): 10 ok, 20 -ENOMEM, 0 other errors' \
	'# task: 100 bpf_get_stackid() (33/s): 90 ok, 10 -ENOMEM, 0 other errors' \
	'# kernel: tainted 0 -> 0, debug_locks 1 -> 1' 'ok 1 nmi_stackmap: 20 pops in NMI found no node (-ENOMEM)'
printf '[    1.000000] Linux version fake\r\n' >&2
[[ -z ${SPLAT:-} ]] || printf '[    2.500000] %s\r\n' "$SPLAT" >&2
exit 0
VM
	chmod +x "$lab/scripts/"*.sh "$lab/tools/testing/nmi_stackmap/build.sh"
	printf '%s\t# %s\n' 'BUG: KCSAN: data-race in known_a / known_b' "the base's, for this test" >"$lab/config/$BASE/known-splats"
	git init -q "$lab/tree"
	git -C "$lab/tree" -c user.name=lab -c user.email=lab@localhost commit -q --allow-empty -m base
	git -C "$lab/tree" tag lab-base
}

# judged LAB: the check-debug run and the nmi run (one kernel, HEAD) of LAB with SPLAT, each "passed" or "failed" and
# its "unknown splat:" lines
judged() {
	local lab=$1 c
	for c in check-debug.sh "nmi-stackmap.sh -d 3 HEAD"; do
		# shellcheck disable=SC2086 # the command and its options
		if out=$(ACCEL=tcg "$lab/scripts/"$c 2>&1); then echo "${c%% *}: passed"; else echo "${c%% *}: failed"; fi
		grep '^unknown splat: ' <<<"$out" || true
	done
}

splats_judged_in_one_place() {
	local lab=$scratch/lab got want others
	fake_lab "$lab"
	export LAB_CACHE=$lab/cache LAB_TREE=$lab/tree
	got=$(SPLAT='BUG: KCSAN: data-race in new_a / new_b' judged "$lab")
	echo "$got"
	want="check-debug.sh: failed
unknown splat: [    2.500000] BUG: KCSAN: data-race in new_a / new_b
nmi-stackmap.sh: failed
unknown splat: [    2.500000] BUG: KCSAN: data-race in new_a / new_b"
	[[ $got == "$want" ]] || { echo "expected both to fail on the unknown splat, as one judge says it"; return 1; }
	got=$(SPLAT='BUG: KCSAN: data-race in known_a / known_b' judged "$lab")
	echo "$got"
	[[ $got == $'check-debug.sh: passed\nnmi-stackmap.sh: passed' ]] || { echo "expected both to count the known splat, not fail"; return 1; }
	grep -q ' 1 (0) | ok |$' "$(readlink -f "$LAB_CACHE/$BASE/results/nmi-stackmap-regress/latest")/table.md" ||
		{ echo "the nmi table does not count the known splat"; return 1; }
	# the one definition: no other file of the lab, shell or Python, defines a splat's pattern or
	# reads splats from a log; only splats.sh has the guest grep its dmesg for them
	others=$(cd "$LAB_ROOT" || exit; {
		grep -rlE --include='*.sh' 'SPLAT_RE=|^(log_splats|unknown_splats) *\(\)|BUG:\|WARNING:' scripts tools config
		grep -rlE --include='*.sh' '^judge_splats *\(\)|dmesg.*grep -nE' scripts tools config | grep -vx scripts/lib/splats.sh
		grep -rlE --include='*.py' '^ *SPLAT_RE *=|^ *def (log_splats|unknown_splats)\b|BUG:\|WARNING:' scripts tools config |
			grep -vx scripts/readout/splats.py
	} || true)
	[[ -z $others ]] || { echo "splats judged outside scripts/readout/splats.py: $(xargs <<<"$others")"; return 1; }
}

run_test splats_judged_in_one_place "$@"
