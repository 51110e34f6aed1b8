#!/bin/bash
# A positive whole number (a count, seconds, CPUs) is checked in one place, positive N [MAX] of
# scripts/lib/config.sh: it takes 1, 2, ... (at most MAX), and no sign, leading zero, unit, blank or
# number too long for bash's arithmetic. No other script of the lab writes that check's pattern
# again (nineteen lines did, in eleven scripts, each with its own edges): scripts/guest/run-kit.sh and
# tools/testing/bpf_lru_list/run.sh alone keep their own, as they run without the lab (a machine
# of make kit's; a harness that needs a kernel source and a compiler only). Each caller still says its own error line
# (measure_refuses_bad_input, knobs_are_checked_before_anything_runs).
# Plant: a script checks a count with its own pattern again.
# Plant command: sed -i 's/^positive "\$trials" ||/[[ $trials =~ ^[1-9][0-9]*$ ]] ||/' scripts/compare/compare.sh
# Plant: the helper takes a leading zero.
# Plant command: sed -i 's/^\t\[\[ \$1 =~ ^\[1-9\]\[0-9\]\*\$ \]\] || return 1$/\t[[ $1 =~ ^[0-9]+$ \&\& $1 != 0 ]] || return 1/' scripts/lib/config.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

positive_numbers_checked_in_one_place() {
	local bad=0 c n want max got copies
	# "N[:MAX] yes|no"
	for c in '1 yes' '7 yes' '42 yes' '1200 yes' '255:255 yes' '3600:3600 yes' '9:10 yes' \
		'0 no' '00 no' '01 no' '-1 no' '+1 no' '1.5 no' '10m no' ' 1 no' '1 2 no' '- no' \
		'256:255 no' '3601:3600 no' '10:9 no' '99999999999999999999999:3600 no' '0:5 no'; do
		n=${c% *} want=${c##* } max=''
		[[ $n != *:* ]] || { max=${n#*:}; n=${n%:*}; }
		[[ $n != - ]] || n=''
		if positive "$n" ${max:+"$max"}; then got=yes; else got=no; fi
		echo "positive '$n' $max: $got"
		[[ $got == "$want" ]] || { echo "  expected $want"; bad=1; }
	done
	copies=$(cd "$LAB_ROOT" && { grep -rnE '\^\[1-9\]\[0-9\](\*|\{[0-9,]*\})\$' scripts tools .ci |
		grep -vE '^scripts/lib/config\.sh:|^scripts/guest/run-kit\.sh:|^tools/testing/bpf_lru_list/run\.sh:' || true; })
	[[ -z $copies ]] || { echo "the check written again, not positive():"; echo "$copies"; bad=1; }
	((bad == 0))
}

run_test positive_numbers_checked_in_one_place "$@"
