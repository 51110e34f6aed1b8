#!/bin/bash
# make regress stops, with the build's own error line and a non-zero status, when a kernel or the
# selftests do not build: never goes on to run or compare suites without them. On a scratch copy of
# the lab whose tree.sh and deps.sh do nothing, whose kernel.sh prints a kernel and whose
# bench-build.sh fails as a selftests build does, with VMS=1 (each side built and run in turn, in a
# command substitution) and VMS=2 (both sides built first).
# Plant: run_kernel going on after a failed build (as regress.sh did until 2026-12-06: "st: unbound
# variable", and exit status 0).
# Plant command: sed -i 's/^\tstage_bench st regress "\$commit" "\${build_suites\[@\]}" || return$/\tstage_bench st regress "$commit" "${build_suites[@]}" || true/' scripts/regress.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

regress_stops_when_a_build_fails() {
	local lab=$scratch/lab vms rc bad=0
	fake_lab_copy "$lab"
	printf '#!/bin/bash\necho %q\n' "$lab/kernel" >"$lab/scripts/kernel.sh"
	printf '#!/bin/bash\necho "error: selftests build failed, see build.log" >&2\nexit 1\n' >"$lab/scripts/bench-build.sh"
	chmod +x "$lab/scripts/"*.sh
	git -C "$lab/tree" -c user.name=lab -c user.email=lab@localhost commit -q --allow-empty -m series
	for vms in 1 2; do
		rc=0
		env LAB_CACHE="$lab/cache" LAB_TREE="$lab/tree" VMS=$vms \
			"$lab/scripts/regress.sh" -a htab_update test_progs >"$scratch/out" 2>"$scratch/err" || rc=$?
		echo "VMS=$vms: exit status $rc; $(grep -c . "$scratch/err") line(s) on stderr:"
		sed 's/^/  /' "$scratch/err"
		if ((rc == 0)); then
			echo "VMS=$vms: exit status 0 after a failed build"
			bad=1
		fi
		grep -qx 'error: selftests build failed, see build.log' "$scratch/err" ||
			{ echo "VMS=$vms: the build's error line is not on stderr"; bad=1; }
		! grep -q 'unbound variable' "$scratch/err" ||
			{ echo "VMS=$vms: went on without the build (unbound variable)"; bad=1; }
		! grep -q . "$scratch/out" || { echo "VMS=$vms: printed results:"; cat "$scratch/out"; bad=1; }
	done
	((bad == 0))
}

run_test regress_stops_when_a_build_fails "$@"
