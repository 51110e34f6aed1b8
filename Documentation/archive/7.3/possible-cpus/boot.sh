#!/bin/bash
# boot.sh NAME TIMEOUT SMP "EXTRA APPEND" [QEMU ARGS...]: boot the 7.3 bench kernel under TCG as
# scripts/vm.sh does (q35, -cpu max, 2G, qboot unless "nobios" is given), console on stdio, each
# console line prefixed with host seconds since QEMU started: NAME.log; NAME.time: wall, rusage.
# PERF=1: perf record of QEMU (NAME.perf). CPU=...: -cpu value.
set -euo pipefail
name=$1 tmo=$2 smp=$3 extra=$4
shift 4
kernel=${KERNEL:-/root/.cache/bpf-lab/7.3/kernels/bench-d7d7d80cbc0d-ca458f285d74/bzImage}
accel=${ACCEL_ARG:-tcg,thread=multi}
bios=(-bios /usr/share/qemu/qboot.rom)
args=()
for a in "$@"; do
	if [[ $a == nobios ]]; then bios=(); else args+=("$a"); fi
done
wrap=()
[[ -z ${PERF:-} ]] || wrap=(perf record -q -F 97 -o "$name.perf" --)
start=$(date +%s.%N)
set +e
/usr/bin/time -o "$name.rusage" -f "user %U sys %S elapsed %e maxrss_kb %M" \
	timeout -s INT "$tmo" "${wrap[@]}" qemu-system-x86_64 -machine q35 -accel "$accel" -cpu "${CPU:-max}" \
	-smp "$smp" -m 2G -nodefaults -no-user-config "${bios[@]}" -no-reboot -display none -monitor none \
	-serial stdio -kernel "$kernel" \
	-append "console=ttyS0 earlyprintk=serial,ttyS0 loglevel=5 panic=-1 oops=panic $extra" "${args[@]}" </dev/null 2>&1 |
	perl -e 'use Time::HiRes qw(time); $|=1; $s=shift; while (<STDIN>) { s/\r//g; printf "%8.2f %s", time()-$s, $_ }' "$start" >"$name.log"
rc=${PIPESTATUS[0]}
set -e
end=$(date +%s.%N)
echo "$name smp=$smp rc=$rc wall=$(echo "$end - $start" | bc) $(cat "$name.rusage" | tail -1)" | tee "$name.time"
