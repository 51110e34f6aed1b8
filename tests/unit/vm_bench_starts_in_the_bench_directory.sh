#!/bin/bash
# make vm-bench CMD='./benchs/run_bench_NAME.sh' runs CMD in the guest from the directory of the
# bench built for REV (./bench, ./benchs/), as the selftests' run scripts expect, with CMD
# unexpanded by make; without CMD it stops with its usage. Run on a scratch copy of the lab whose
# tree.sh, deps.sh, bench-build.sh, kernel.sh and vm.sh are fakes: vm.sh runs the guest's
# command line with bash on the host, so nothing is built or booted.
# Plant: vm-bench.sh passing CMD to vm.sh without the cd to the bench's directory.
# Plant command: sed -i 's/"cd $(printf %q "$bench_dir") \&\& $\*"/"$*"/' scripts/vm-bench.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_bench_starts_in_the_bench_directory() {
	local lab=$scratch/lab bench=$scratch/bench-out out f
	mkdir -p "$lab" "$bench/benchs" "$scratch/cache"
	cp -a "$LAB_ROOT/Makefile" "$LAB_ROOT/scripts" "$LAB_ROOT/config" "$lab/"
	printf '#!/bin/sh\nexit 0\n' >"$bench/bench"
	printf '#!/bin/sh\necho run-script-ran\n' >"$bench/benchs/run_bench_fake.sh"
	chmod +x "$bench/bench" "$bench/benchs/run_bench_fake.sh"
	for f in tree.sh deps.sh; do
		printf '#!/bin/bash\nexit 0\n' >"$lab/scripts/$f"
	done
	printf '#!/bin/bash\necho building >&2\necho %q\n' "$bench" >"$lab/scripts/bench-build.sh"
	printf '#!/bin/bash\necho %q\n' "$scratch/kernel" >"$lab/scripts/kernel.sh"
	# vm.sh -k KERNEL -- COMMAND-LINE: the guest's command line, run by bash from /, as root's HOME
	cat >"$lab/scripts/vm.sh" <<'VM'
#!/bin/bash
[[ $1 == -k && $3 == -- ]] || { echo "fake vm.sh: unexpected arguments: $*" >&2; exit 99; }
cd / && HOME=/root exec bash -c "$4"
VM
	chmod +x "$lab/scripts/"*.sh
	# REV is looked up in the tree by the real lib.sh: a tree of one commit
	git init -q "$scratch/tree"
	git -C "$scratch/tree" -c user.name=lab -c user.email=lab@localhost commit -q --allow-empty -m base
	# shellcheck disable=SC2016 # CMD is the guest's, expanded there
	out=$(LAB_CACHE=$scratch/cache LAB_TREE=$scratch/tree make -s -C "$lab" vm-bench \
		CMD='pwd; ./benchs/run_bench_fake.sh; test -x ./bench && echo bench-found; echo "home=$HOME"' 2>&1) || true
	echo "$out"
	grep -qxF "$bench" <<<"$out" || { echo "the guest did not start in the bench's directory $bench"; return 1; }
	grep -qx run-script-ran <<<"$out" || { echo "./benchs/run_bench_fake.sh did not run"; return 1; }
	grep -qx bench-found <<<"$out" || { echo "./bench not found"; return 1; }
	grep -qx 'home=/root' <<<"$out" || { echo "CMD was expanded before the guest ran it"; return 1; }
	LAB_CACHE=$scratch/cache LAB_TREE=$scratch/tree expect_fail "^usage: make vm-bench CMD=" make -s -C "$lab" vm-bench
}

run_test vm_bench_starts_in_the_bench_directory "$@"
