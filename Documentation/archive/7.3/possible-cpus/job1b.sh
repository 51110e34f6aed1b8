#!/bin/bash
# Why the kernel with acpi=off found 1 possible CPU: its messages (loglevel 8) and SeaBIOS's (debugcon).
cd /tmp/pcpu255
root="root=root rootfstype=9p ro rootflags=trans=virtio,version=9p2000.L,cache=loose,msize=524288 init=/tmp/pcpu255/init.sh"
fs=(-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap -device virtio-9p-pci,fsdev=root,mount_tag=root)
date -u +%T
./boot.sh d-mptable-q35 60 1,maxcpus=255,sockets=255,cores=1,threads=1 "acpi=off loglevel=8 $root" nobios \
	-chardev file,id=dbg,path=d-mptable-q35.seabios -device isa-debugcon,iobase=0x402,chardev=dbg "${fs[@]}"
./boot.sh d-mptable-pc 60 1,maxcpus=255,sockets=255,cores=1,threads=1 "acpi=off loglevel=8 $root" nobios -machine pc \
	-chardev file,id=dbg,path=d-mptable-pc.seabios -device isa-debugcon,iobase=0x402,chardev=dbg "${fs[@]}"
date -u +%T
