#!/bin/bash
# Early boot against present CPUs (2 online), MTTCG as vm.sh runs it, no root: the boot ends at
# the root mount's panic.
cd /tmp/pcpu255
date -u +%T
# QEMU alone: build the machine with N vCPUs, paused (-S), and quit
for n in 2 64 255; do
	s=$(date +%s.%N)
	echo quit | qemu-system-x86_64 -machine q35 -accel tcg,thread=multi -cpu max -smp $n -m 2G -nodefaults \
		-no-user-config -bios /usr/share/qemu/qboot.rom -display none -S -monitor stdio >/dev/null 2>&1
	echo "qemu-only smp=$n wall=$(echo "$(date +%s.%N) - $s" | bc)"
done
for n in ${SWEEP:-2 16 64}; do
	./boot.sh s-$n ${TMO:-240} $n "maxcpus=2 initcall_debug ignore_loglevel"
done
date -u +%T
