#!/bin/sh
# init for the possible-CPU checks: print the CPU masks, then restart (QEMU -no-reboot exits)
mount -t sysfs sysfs /sys
mount -t proc proc /proc
for m in possible present online; do echo "cpu-$m: $(cat /sys/devices/system/cpu/$m)"; done
echo "uptime: $(cat /proc/uptime)"
grep -m1 -i hypervisor /proc/cpuinfo | cut -c1-30
perl -e 'syscall(169, 0xfee1dead, 672274793, 0x01234567)'
sleep 5
