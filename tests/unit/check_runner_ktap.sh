#!/bin/bash
# The runner (scripts/check.sh) in kselftest's shape, on a scratch copy of the lab whose unit tier
# holds five stand-in tests: the plan first, "ok", "not ok" with the end of the test's log, "ok ...
# # SKIP reason" for exit status 4, "not ok ... # TIMEOUT N seconds" at the settings file's limit,
# the closing line "N passed, N failed, N skipped" and exit status 1; no process of a test outlives
# it, whether it timed out or left a background job behind. prove parses the output. -a/-b select
# by glob, -l lists.
# Plant: the runner leaving a test's background jobs running (no kill of its process group).
# Plant command: sed -i '/what the test left running/d' scripts/check.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

check_runner_ktap() {
	local lab=$scratch/lab marker out rc=0 t0 want
	marker=lab-runner-test-$$-$RANDOM
	# Whatever the stand-ins leave running (a planted runner leaks e_leak's job) goes when this
	# test ends: the marked shells' children (sleep, which has no marker), then the shells.
	# shellcheck disable=SC2064 # the marker is fixed now
	trap "{ pgrep -f '$marker' | xargs -r -n1 pkill -P; pkill -f '$marker'; } >/dev/null 2>&1 || true" EXIT
	mkdir -p "$lab/tests/unit"
	cp -a "$LAB_ROOT/scripts" "$LAB_ROOT/config" "$lab/"
	cp "$LAB_ROOT/tests/lib.sh" "$LAB_ROOT/tests/ktap.sh" "$lab/tests/"
	echo timeout=3 >"$lab/tests/unit/settings"
	stand_in() {
		# shellcheck disable=SC2016 # the stand-in test's own $0
		printf '#!/bin/bash\n. "$(dirname "$0")/../lib.sh"\nt() {\n%s\n}\nrun_test t\n' "$2" >"$lab/tests/unit/$1.sh"
		chmod +x "$lab/tests/unit/$1.sh"
	}
	stand_in a_pass 'echo fine'
	stand_in b_fail 'echo "the reason it failed"; return 1'
	stand_in c_skip 'skip "nothing to test here"'
	stand_in d_hang "bash -c 'sleep 1000; true' $marker-hang"
	stand_in e_leak "bash -c 'sleep 1000; true' $marker-leak </dev/null >/dev/null 2>&1 &"
	t0=$SECONDS
	out=$("$lab/scripts/check.sh" -t unit 2>/dev/null) || rc=$?
	echo "$out"
	want=$(cat <<'WANT'
TAP version 13
1..5
ok 1 unit/a_pass
not ok 2 unit/b_fail
ok 3 unit/c_skip # SKIP nothing to test here
not ok 4 unit/d_hang # TIMEOUT 3 seconds
ok 5 unit/e_leak
2 passed, 2 failed, 1 skipped
WANT
	)
	diff <(echo "$want") <(grep -vE '^#' <<<"$out" | sed -E 's/ \([0-9]+s\)$//') || { echo "not the expected KTAP (- expected)"; return 1; }
	grep -qx '# | # the reason it failed' <<<"$out" || { echo "the failing test's log is not shown"; return 1; }
	((rc == 1)) || { echo "exit status $rc, expected 1"; return 1; }
	# A TAP parser reads it so: prove (Debian's perl, TAP::Harness) on the runner's output.
	echo "$out" >"$scratch/runner.tap"
	prove --exec cat "$scratch/runner.tap" >"$scratch/prove.out" 2>&1 || true
	cat "$scratch/prove.out"
	if ! grep -q 'Tests: 5 Failed: 2)' "$scratch/prove.out" || ! grep -q 'Failed tests:  2, 4' "$scratch/prove.out"; then
		echo "prove does not read 5 tests, 2 and 4 failed"
		return 1
	fi
	((SECONDS - t0 < 30)) || { echo "took $((SECONDS - t0))s"; return 1; }
	if pgrep -f "$marker" >/dev/null; then
		echo "left running: $(pgrep -af "$marker")"
		return 1	# the EXIT trap kills them: only this test's own, the marker is unique to it
	fi
	out=$("$lab/scripts/check.sh" -t unit -a 'a_*,c_skip' -b c_skip 2>/dev/null)
	[[ $(grep -c '^ok' <<<"$out") == 1 && $(tail -n1 <<<"$out") == "1 passed, 0 failed, 0 skipped" ]] ||
		{ echo "-a/-b: $out"; return 1; }
	[[ $("$lab/scripts/check.sh" -l -t unit -b 'd_*,e_*') == "$(printf 'unit/%s\n' a_pass b_fail c_skip)" ]] ||
		{ echo "-l -b does not list a_pass b_fail c_skip"; return 1; }
	expect_fail "^error: no test matches 'nosuch'" "$lab/scripts/check.sh" -t unit nosuch
	expect_fail '^error: -t nosuch: no such tier' "$lab/scripts/check.sh" -t nosuch
}

run_test check_runner_ktap "$@"
