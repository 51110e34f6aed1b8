#!/bin/bash
# The ways to more possible than online CPUs under TCG, each one boot to init.sh's masks.
cd /tmp/pcpu255
root="root=root rootfstype=9p ro rootflags=trans=virtio,version=9p2000.L,cache=loose,msize=524288 init=/tmp/pcpu255/init.sh"
fs=(-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap -device virtio-9p-pci,fsdev=root,mount_tag=root)
date -u +%T
# control: QEMU's disabled MADT entries (6.1's way), qboot
./boot.sh p-absent 90 2,maxcpus=8 "$root" "${fs[@]}"
# SeaBIOS's MP table lists 255 CPUs, 254 disabled; the kernel without ACPI reads it
./boot.sh p-mptable-acpioff 150 1,maxcpus=255,sockets=255,cores=1,threads=1 "acpi=off $root" nobios "${fs[@]}"
# same, ACPI on but no MADT found (instance 2 of one), so the MP table gives the CPUs
./boot.sh p-mptable-apicinst2 150 1,maxcpus=255,sockets=255,cores=1,threads=1 "acpi_apic_instance=2 $root" nobios "${fs[@]}"
# VMware's DMI path: vmport on, SMBIOS serial VMware, no hypervisor bit (the kernel has no CONFIG_DMI)
CPU=max,hypervisor=off ./boot.sh p-vmware-dmi 90 2,maxcpus=8 "$root" nobios -machine vmport=on -smbios type=1,serial=VMware-lab "${fs[@]}"
# Hyper-V enlightenments under TCG
CPU=max,hv-relaxed,hv-vpindex ./boot.sh p-hyperv 60 2,maxcpus=8 "$root" "${fs[@]}"
date -u +%T
