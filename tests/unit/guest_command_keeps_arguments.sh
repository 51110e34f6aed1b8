#!/bin/bash
# vm.sh runs its words joined by spaces as the guest's command line, so a lab script that passes the
# guest arguments with spaces (a DENYLIST subtest entry: "verifier_map_ptr/bpf_map_ptr: r = 0, r =
# r + map_ptr @unpriv") quotes them with lib.sh's guest_command. Each argument must come back
# intact from a shell (spaces, commas, quotes, $, globs, an empty one), and make regress's guest
# call must go through it.
# Plant: guest_command joining its arguments with spaces, as vm.sh would.
# Plant command: sed -i "s/^\tprintf -v line '%q ' \"\\\$@\"$/\tline=\"\$*\"/" scripts/lib/guest.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# shellcheck disable=SC2016 # literal dollars: what must come back intact, and the call searched for
guest_command_keeps_arguments() {
	local args=("a b" "t/sub, 6 @unpriv,u/*" "it's" '$HOME "x"' '' 'tab	here') want got
	want=$(printf '<%s>\n' "${args[@]}")
	got=$(bash -c "$(guest_command printf '<%s>\n' "${args[@]}")")
	if [[ $got != "$want" ]]; then
		echo "arguments came back changed:"
		diff <(echo "$want") <(echo "$got") || true
		return 1
	fi
	grep -q 'guest_command bash "$LAB_ROOT/scripts/regress-guest.sh"' "$S/regress.sh" ||
		{ echo "regress.sh passes regress-guest.sh's arguments to vm.sh without guest_command"; return 1; }
}

run_test guest_command_keeps_arguments "$@"
