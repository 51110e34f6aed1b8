#!/bin/bash
# 6.12's bench kernel under icount with N present CPUs (maxcpus=2), earlyprintk on stdio, each line
# stamped with the host's wall clock: guest time against wall time.
K=/root/.cache/bpf-lab/6.12/kernels/bench-1da0fafbe01d-ea747c60edcc/bzImage
for n in "$@"; do
	out=/root/runs/early612ts-$n.log
	t0=$(date +%s.%N)
	timeout 300 qemu-system-x86_64 -machine q35 -accel tcg,thread=single -icount shift=0,sleep=off -cpu max \
		-smp "$n" -m 2G -nodefaults -no-user-config -bios /usr/share/qemu/qboot.rom -no-reboot \
		-display none -monitor none -serial stdio -kernel "$K" \
		-append "console=ttyS0 earlyprintk=serial,ttyS0 loglevel=8 maxcpus=2 panic=-1" </dev/null 2>/dev/null |
		while IFS= read -r l; do printf '%.1f %s\n' "$(echo "$(date +%s.%N) - $t0" | bc)" "$l"; done >"$out"
	echo "smp $n: $(wc -l <"$out") lines; last: $(tail -n1 "$out" | cut -c1-100)"
done
