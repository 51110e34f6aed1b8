#!/bin/bash
# Early boot against present CPUs under the deterministic clock (-icount shift=0,sleep=off, one
# vCPU thread, maxcpus=1 as vm.sh -i runs it), CPU 0's RIP sampled every 5 s from the monitor.
cd /tmp/pcpu255
date -u +%T
for n in ${SWEEP:-2 16 64}; do
	rm -f mon-$n.sock
	(sleep 1; python3 sample.py mon-$n.sock System.map 5 60 > rip-i$n.txt 2>&1) &
	sp=$!
	ACCEL_ARG=tcg,thread=single ./boot.sh i-$n ${TMO:-240} $n "maxcpus=1" -icount shift=0,sleep=off \
		-chardev socket,id=mon,path=mon-$n.sock,server=on,wait=off -mon chardev=mon,mode=readline
	kill $sp 2>/dev/null; wait $sp 2>/dev/null
	rm -f mon-$n.sock
done
date -u +%T
