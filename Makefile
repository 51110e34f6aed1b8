# The lab: turns patches/<base>/ into a booted Linux kernel (the base of config/default-base, or
# BASE=<a directory of config/>) that runs the BPF selftests `bench`.
# Every target prints what it does and how long each long step took. Build products live in
# $(LAB_CACHE), outside this clone. `make help` lists the targets.
SHELL := /bin/bash
S := scripts

# Knobs, passed to the scripts through the environment (make exports command-line variables):
#   BASE=<base> (default: config/default-base; config/<base>/, patches/<base>/, $(LAB_CACHE)/<base>/)
#   TREE=/path/to/linux SERIES_REV= BASE_REV= TREE_DIRTY=1: a kernel checkout of your own, read only
#   (scripts/tree.sh --help, scripts/lib/own-tree.sh)
#   REV=<commit-ish of the tree>   CMD='<command for make vm; none: a shell>'   BENCHS='<names or families>'
#   CPUS=2 MAXCPUS=<possible CPUs> MEM=2G TIMEOUT=<seconds: 600 for vm, 1200 for bench>
#   SILENCE=300 ICOUNT=1 (deterministic clock) ACCEL=kvm|tcg (default: probe KVM); the defaults of
#   CPUS, MEM, TIMEOUT and SILENCE are those of config/vm.conf
#   RECORD=1: make bench, host-bench, compare, scaling, regress, nmi and check-debug also write what
#   they measured as a record, records/<base>/<kind>/<id>/ (scripts/readout.py records), for make matrix and
#   the findings (the one switch: scripts/lib/pipeline.sh's lab_record)
#   DRY_RUN=1, or make -n: those targets print the commands of each stage of the pipeline
#   (scripts/lib/pipeline.sh) and build, boot and run nothing; the target they depend on (deps) is
#   only printed, as make -n prints it
# Every script checks them all first (check_knobs, scripts/lib/config.sh), before anything runs.
REV ?= HEAD
make_n := $(findstring n,$(firstword -$(MAKEFLAGS)))
DRY_RUN := $(if $(make_n),1,$(DRY_RUN))
export REV BENCHS DRY_RUN
# $(dry)COMMAND: with DRY_RUN=1 (not make -n, which prints it itself), print COMMAND, "+ COMMAND"
dry = $(if $(make_n),,$(if $(filter 1,$(DRY_RUN)),@echo + ))
# CMD reaches the guest as written: $(value CMD), single-quoted for the shell, never expanded by
# make (make vm CMD='echo $$HOME' prints the HOME of the guest), nor exported (which expands it).
unexport CMD
cmd_quoted = '$(subst ','\'',$(value CMD))'

.PHONY: help deps base tree series kernel bench-build kit vm vm-bench bench host-bench check check-unit check-slow compare scaling check-debug gates mbox regress matrix findings litmus nmi

help:
	@echo "make bench        the main job: build what is missing, run the benchmark suite in the VM"
	@echo "make check        the tests of the lab and of every base's series, what CI runs (BASE=<base>: that base only)"
	@echo "make check-unit   the unit tests: no kernel, no VM, under a minute (CI runs them first)"
	@echo "make check-slow   the hours-long tests: CI's share of make regress, and the lines marked slow (LTS kernels)"
	@echo "make host-bench   run the host-safe benchmarks on the host kernel (smoke test)"
	@echo "make tree         materialize the kernel git tree: base commit + patches/ (git am)"
	@echo "make series       regenerate patches/ from the tree (git format-patch), series by series"
	@echo "make mbox         one mbox per series, in the order they apply (\$$LAB_CACHE/<base>/mbox/<series>.mbox)"
	@echo "make gates        the series' per-patch gates, series after series (checkpatch, bisect build, W=1, sparse)"
	@echo "make kernel       build the kernel of REV (default HEAD) in the cache"
	@echo "make bench-build  build the selftests bench of REV"
	@echo "make kit          one tarball for real hardware: base and series kernels, bench, run-kit.sh (freelist rows, a record)"
	@echo "make vm CMD='…'   boot the kernel of REV and run CMD in it (CPUS, MAXCPUS, MEM, TIMEOUT, SILENCE, ICOUNT, ACCEL; scripts/vm.sh -h)"
	@echo "make vm           the same with a shell in the guest on this terminal; exit or Ctrl-D ends it, leaving nothing behind"
	@echo "make vm-bench CMD='…'  the same, from the directory of REV's bench: CMD='./benchs/run_bench_NAME.sh'"
	@echo "make compare      base vs series side by side in the VM (TRIALS, CLOCKS, VARIANTS, POSSIBLE, BENCHS, RECORD=1)"
	@echo "make scaling      trig-* -p1 against -p2, base vs series bench, in the VM (HOST=1: on the host; RECORD=1)"
	@echo "make regress      the kernel's BPF selftests (4 suites) on base and series, CI's config, in the VM (SUITES, TESTS, PLANT, LIMIT, WHOLE_LIMIT, VMS)"
	@echo "make nmi          a full stack map popped in NMI (sysrq-l), base vs series, in the VM (DEBUG=1: check-debug's kernels; RECORD=1)"
	@echo "make check-debug  a KCSAN + lockdep kernel of REV runs the changed benchmarks and selftests: no splat but the base's known ones (RECORD=1)"
	@echo "make matrix       EVIDENCE.md, the evidence table, from the records (records/, config/matrix; CHECK=1: only check it)"
	@echo "make findings     the tables of record of Documentation/findings/ from the records (CHECK=1: only check them)"
	@echo "make litmus       the series' ordering claims in herd7 against the kernel's memory model (tests Never, plants Sometimes)"
	@echo "make deps         install the Debian packages the lab needs"
	@echo "make base         fetch and extract the base's Debian source package, with a private apt configuration (ALLOW_BASE_VERSION=1)"
	@echo "make help         this list"
	@echo "Knobs, on the command line (each checked before anything runs; the scripts' --help and Documentation/lab.md say more):"
	@echo "  REV=<commit-ish> the commit of the tree that kernel, bench-build, vm, vm-bench, bench and check-debug build (default HEAD)"
	@echo "  LLVM=1           kernels and selftests built with the base's clang and lld, BPF CI's second toolchain (7.3)"
	@echo "  RECORD=1         bench, host-bench, compare, scaling, regress, nmi and check-debug also write a record (records/<base>/)"
	@echo "  DRY_RUN=1        (or make -n) bench, compare, scaling, regress, nmi and check-debug print their commands, build and boot nothing"
	@echo "  FORCE=1          make tree, make series: rebuild over uncommitted work or commits patches/ lacks, drop patches the tree lacks"
	@echo "  ALLOW_BASE_VERSION=1  make base: the newest version the suite serves when it no longer serves the pinned one"
	@echo "  CPUS, MAXCPUS, MEM, TIMEOUT, SILENCE, ICOUNT=1, ACCEL=kvm|tcg  the VM's (defaults: config/vm.conf)"
	@echo "  TREE=/path/to/linux [SERIES_REV=…] [BASE_REV=…] [TREE_DIRTY=1] on kernel, bench, compare, regress, check-debug, nmi, vm, vm-bench: your own checkout (scripts/tree.sh --help)"
	@bases=$$(ls config/*/base.conf | cut -d/ -f2 | sort -V | xargs); \
	echo "Every target works on one base: BASE=<one of: $$bases> (default: $$(sed -n '/^[^#]/{p;q}' config/default-base); config/<base>/, patches/<base>/)"

deps:
	@$(dry)$(S)/deps.sh

base: deps
	@$(S)/base.sh

tree: deps
	@$(dry)$(S)/tree.sh

series:
	@$(S)/series.sh

kernel: tree
	@$(S)/kernel.sh "$$REV"

bench-build: tree
	@$(S)/bench-build.sh "$$REV"

# The base's and REV's kernels, REV's bench and scripts/guest/run-kit.sh in one tarball, for a machine
# the lab does not run on: $(LAB_CACHE)/<base>/kit/ (the last line names it).
kit: tree
	@$(S)/kit.sh

# A REV that is not a commit of the tree, or whose kernel does not build, stops here. Without CMD:
# a shell in the guest on this terminal (vm.sh -I), as selftests/bpf's vmtest.sh -s.
vm: tree
	@kernel=$$($(S)/kernel.sh "$$REV") && $(S)/vm.sh -k "$$kernel" $(if $(value CMD),-- $(cmd_quoted),-I)

# The tree: make tree, a prerequisite, for the targets that build one commit (kernel, bench-build,
# kit, vm, mbox); the pipeline's first stage (stage_tree, scripts/lib/pipeline.sh) for those that
# measure (vm-bench, bench, host-bench, compare, scaling, check-debug, regress, nmi) and for gates.sh:
# once a target either way, printed by a dry run.
# The guest starts in the directory of REV's bench (./bench, ./benchs/), as the run scripts expect.
vm-bench: deps
	@[ -n $(cmd_quoted) ] || { echo "usage: make vm-bench CMD='./benchs/run_bench_NAME.sh'" >&2; exit 2; }
	@$(S)/vm-bench.sh -- $(cmd_quoted)

bench: deps
	+@$(S)/bench.sh

host-bench: deps
	+@$(S)/bench.sh -H

# The tiers (tests/<tier>/): unit, lab, series, vm (make check), regress and the lines of
# config/<base>/tests marked slow (make check-slow).
# TESTS: globs of test names (scripts/check.sh -a); scripts/check.sh -l lists them.
check_select = $(if $(TESTS),-a "$(TESTS)")

check: deps
	@$(S)/check.sh -t unit,lab,series,vm $(check_select)

check-unit:
	@$(S)/check.sh -t unit $(check_select)

check-slow: deps
	@$(S)/check.sh -t regress,slow $(check_select)

compare: deps
	+@scripts/compare/compare.sh

scaling: deps
	+@scripts/compare/scaling.sh $(if $(filter 1,$(HOST)),-H) -B "$(REV)" $(BENCHS)

check-debug: deps
	+@scripts/check-debug.sh

gates: deps
	@scripts/gates.sh

mbox: tree
	@scripts/mbox.sh

# SUITES: some of test_progs test_progs-no_alu32 test_maps test_verifier, or test_lru_map; TESTS: test_progs tests
# (comma-separated globs); PLANT: a patch applied on the series (lab/plants/NAME.patch);
# RECORD=1: write the results as a record, records/<base>/regress/ (scripts/readout.py records). The
# measuring targets' recipes start with + so that make -n runs them, as dry runs (DRY_RUN=1).
regress: deps
	+@$(S)/regress.sh $(if $(TESTS),-a "$(TESTS)") $(if $(PLANT),-p "$(PLANT)") $(SUITES)

# bpf_get_stackid() on a full stack map from NMI context (tools/testing/nmi_stackmap), on the
# base's and the series' regress kernels (DEBUG=1: check-debug's, KCSAN); RECORD=1: records/<base>/nmi/
nmi: deps
	+@$(S)/nmi-stackmap.sh $(if $(filter 1,$(DEBUG)),-c debug)

# EVIDENCE.md, the evidence table (generated whole), from config/matrix and the records
# (records/, scripts/readout.py records); CHECK=1: only check it, one line per cell that differs.
matrix:
	@$(S)/readout.py matrix $(if $(filter 1,$(CHECK)),--check)

# The tables between the markers of Documentation/findings/*.md and Documentation/regress.md, from
# the records (scripts/readout.py findings); CHECK=1: only check them, one line per table that differs.
findings:
	@$(S)/readout.py findings $(if $(filter 1,$(CHECK)),--check)

# The litmus tests of tools/testing/pcpu_freelist/litmus/ with herd7 (fetched into the cache) against
# tools/memory-model of the base's source (make base).
litmus: base
	@$(S)/litmus.sh
