#!/bin/bash
# check-debug fails on a splat unless config/<base>/known-splats names it as the base's, with its
# reason: the base's percpu_counter race is known, another race or a lockdep report is not. The
# splats are read from a VM run's log as check-debug reads them (judge_splats, which asks
# scripts/readout/splats.py): from the console and from the guest's `grep -n` of dmesg, each once,
# and only kernel messages.
# Plant: log_splats counting a splat twice when both the console and dmesg have it.
# Plant command: sed -i 's|return sorted({line for line in lines if MESSAGE.match(line) and SPLAT_RE.search(line)})|return sorted([line for line in lines if MESSAGE.match(line) and SPLAT_RE.search(line)])|; s|splats = sorted({s for log in args.logs for s in log_splats(read(log))})|splats = [s for log in args.logs for s in log_splats(read(log))]|' scripts/readout/splats.py
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

known_splats() {
	local bad=0 got want
	# an entry is the text of a splat's first line: spaces, no `#`
	lists_give_reasons '[^#]*[^#[:space:]]' "$LAB_ROOT"/config/*/known-splats || bad=1
	printf '%s\r\n' '[   22.400000] BUG: KCSAN: data-race in __percpu_counter_compare / percpu_counter_add_batch' \
		'[   23.000000] BUG: KCSAN: data-race in pcpu_freelist_pop / pcpu_freelist_push' >"$scratch/log"
	cat >>"$scratch/log" <<'EOF'
BUG: printed by the command, not a kernel message
--- dmesg splats ---
279:[   22.400000] BUG: KCSAN: data-race in __percpu_counter_compare / percpu_counter_add_batch
280-[   22.500000] read to 0xffff888101fab408 of 8 bytes by task 92 on cpu 0:
300:[   23.000000] BUG: KCSAN: data-race in pcpu_freelist_pop / pcpu_freelist_push
310:[   24.000000] WARNING: possible circular locking dependency detected
--- end ---
[   25.000000] BUG: sleeping function called from invalid context at mm/slab.h:723
EOF
	# a base's list, as config/<base>/known-splats has it
	printf '%s\t# %s\n' 'BUG: KCSAN: data-race in __percpu_counter_compare / percpu_counter_add_batch' \
		"the base's rough count, read unlocked by design" >"$scratch/known-splats"
	BASE_CONFIG=$scratch judge_splats "$scratch/log" >"$scratch/judged" 2>"$scratch/unknown"
	got=$(sed 's/^unknown splat: //' "$scratch/unknown" | paste -sd'|')
	want='[   23.000000] BUG: KCSAN: data-race in pcpu_freelist_pop / pcpu_freelist_push|[   24.000000] WARNING: possible circular locking dependency detected|[   25.000000] BUG: sleeping function called from invalid context at mm/slab.h:723'
	echo "unknown: $got"
	[[ $got == "$want" ]] || { echo "expected: $want"; bad=1; }
	got=$(cat "$scratch/judged")
	echo "splats, unknown: $got"
	[[ $got == '4 3' ]] || { echo "expected 4 splats, each once, 3 of them unknown"; bad=1; }
	((bad == 0))
}

run_test known_splats "$@"
