#!/bin/bash
# Crashes are found in the kernel's messages, not in what the command prints.
# Plant: vm.sh looking for crashes in the command's output too (both streams grepped).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_crash_is_read_from_kernel_messages() {
	local out
	out=$(vm -- 'echo "BUG: printed by the command, not a crash"; echo "Kernel panic - also not"; exit 0') ||
		{ echo "$out"; echo "the command's own output was taken for a crash"; return 1; }
	expect_fail 'the kernel crashed' vm -- 'echo "<2>BUG: planted in the kernel log by check.sh" >/dev/kmsg; exit 0'
	# A KCSAN report is not a crash: check-debug.sh judges it. (It is on the console, vm.sh's stderr.)
	out=$(vm -- 'echo "<3>BUG: KCSAN: data-race in planted_a / planted_b" >/dev/kmsg; exit 0' 2>&1) ||
		{ echo "$out"; echo "a KCSAN report was taken for a crash"; return 1; }
	grep -q 'BUG: KCSAN: data-race in planted_a' <<<"$out" || { echo "$out"; echo "the report is not on the console"; return 1; }
}

run_test vm_crash_is_read_from_kernel_messages "$@"
