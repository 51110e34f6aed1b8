#!/bin/bash
# Every measuring target stops when a build fails inside a command substitution, as a real
# build's step can (`dir=$(build)`): a non-zero exit status, the build's own error line, and
# nothing booted after it. bash resets set -e inside $(...) unless inherit_errexit is on, so
# without lib.sh's `shopt -s inherit_errexit` such a build "succeeds" with half its output and the
# target goes on to boot and report. On a scratch copy of the lab whose tree.sh and deps.sh do
# nothing, whose kernel.sh and bench-build.sh source lib.sh as every lab script does and build
# inside a command substitution (one of them failing there, in turn), and whose vm.sh only notes
# that it was started: make bench, compare, regress (VMS=1, each side in a command substitution),
# check-debug, nmi, scaling, and scripts/plant.sh.
# Plant: lib.sh without inherit_errexit (set -e stops at the edge of $(...), as until 2026-12-07).
# Plant command: sed -i '/^shopt -s inherit_errexit$/d' scripts/lib.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# fake_build LAB NAME FAILS: LAB/scripts/NAME.sh, a build that prints LAB/out-NAME; with FAILS=1 it
# fails inside the command substitution that makes its output. -n (the directory a build would
# be in) never fails.
fake_build() {
	local lab=$1 name=$2 fails=$3
	cat >"$lab/scripts/$name.sh" <<EOF
#!/bin/bash
set -euo pipefail
. "\$(dirname "\$0")/lib.sh"
for a; do [[ \$a != -n ]] || { echo $(printf %q "$lab/out-$name"); exit 0; }; done
build() {
	if (($fails)); then
		echo "error: $name: the build failed (fake), see its log" >&2
		false
	fi
	mkdir -p $(printf %q "$lab/out-$name")
	echo $(printf %q "$lab/out-$name")
}
dir=\$(build)
echo "\$dir"
EOF
	chmod +x "$lab/scripts/$name.sh"
}

measuring_targets_stop_when_a_build_fails() {
	local lab=$scratch/lab fails target rc bad=0 line
	local -A cmd=(
		[bench]='make bench'
		[compare]='make compare TRIALS=1 CLOCKS=icount'
		[regress]='make regress VMS=1 SUITES=test_progs TESTS=htab_update'
		[check-debug]='make check-debug'
		[nmi]='make nmi'
		[scaling]='make scaling'
		[plant]='scripts/plant.sh none true'
	)
	fake_lab_copy "$lab"
	printf '#!/bin/bash\ntouch %q\n' "$lab/booted" >"$lab/scripts/vm.sh"
	chmod +x "$lab/scripts/vm.sh"
	git -C "$lab/tree" -c user.name=lab -c user.email=lab@localhost commit -q --allow-empty -m series
	for fails in kernel bench-build; do
		fake_build "$lab" kernel "$([[ $fails == kernel ]] && echo 1 || echo 0)"
		fake_build "$lab" bench-build "$([[ $fails == bench-build ]] && echo 1 || echo 0)"
		line="error: $fails: the build failed (fake), see its log"
		for target in bench compare regress check-debug nmi scaling plant; do
			rm -f "$lab/booted"
			rc=0
			# shellcheck disable=SC2086 # the target's command line, words
			(cd "$lab" && env -u MAKEFLAGS -u MAKELEVEL -u DRY_RUN -u RECORD -u REV -u TESTS -u SUITES \
				-u BENCHS -u PLANT LAB_CACHE="$lab/cache" LAB_TREE="$lab/tree" ${cmd[$target]}) \
				>"$scratch/out" 2>&1 </dev/null || rc=$?
			if ((rc == 0)); then
				echo "$target, $fails fails: exit status 0 after a failed build"
				bad=1
			elif ! grep -qxF "$line" "$scratch/out"; then
				echo "$target, $fails fails: exit status $rc, without the build's line"
				bad=1
			elif [[ -e $lab/booted ]]; then
				echo "$target, $fails fails: exit status $rc, but booted after the failed build"
				bad=1
			else
				echo "$target, $fails fails: exit status $rc, the build's line, nothing booted"
				continue
			fi
			sed 's/^/    /' "$scratch/out"
		done
	done
	((bad == 0))
}

run_test measuring_targets_stop_when_a_build_fails "$@"
