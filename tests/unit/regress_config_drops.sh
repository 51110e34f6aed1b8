#!/bin/bash
# kernel.sh -c regress names the options the selftests' config asks for and does not get
# (config_dropped): the last request of an option set twice counts, "not set" is also a value.
# Plant: config_dropped taking an option the kernel config does not mention for "asked" (no "not set").
# Plant command: sed -i 's/(n in got ? got\[n\] : "n")/got[n]/' scripts/lib/guest.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

regress_config_drops() {
	local got want
	printf '%s\n' CONFIG_TWICE=y CONFIG_LOST=y CONFIG_CHOICE_A=y '# CONFIG_OFF is not set' CONFIG_MOD=m \
		CONFIG_STR='"a"' >"$scratch/config"
	printf '%s\n' CONFIG_TWICE=y '# CONFIG_CHOICE_A is not set' CONFIG_CHOICE_B=y CONFIG_GONE=y \
		>"$scratch/config.x86_64"
	printf '%s\n' CONFIG_TWICE=y '# CONFIG_LOST is not set' CONFIG_CHOICE_B=y CONFIG_MOD=y \
		CONFIG_STR='"b"' >"$scratch/.config"
	got=$(config_dropped "$scratch/.config" "$scratch/config" "$scratch/config.x86_64" | paste -sd' ')
	want='CONFIG_GONE CONFIG_LOST CONFIG_MOD CONFIG_STR'
	echo "dropped: $got"
	[[ $got == "$want" ]] || { echo "expected: $want"; return 1; }
}

run_test regress_config_drops "$@"
