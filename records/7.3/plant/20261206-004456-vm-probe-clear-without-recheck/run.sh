#!/bin/bash
# The VM probe of the clear-without-recheck plant: agerace (two CPUs start a failing insert at once,
# with a swept skew, after head 0 aged; then a delete on CPU 0 must be found by an insert on CPU 1)
# and agerace2 (both CPUs fail inserts in a loop across the jiffy in which head 0 ages), on the
# 7.3 series' bench kernel with the plant and without it.
set -u
cd /tmp/wt-probe
export BASE=7.3
for k in plant none; do
	kernel=$(cat /tmp/agerace/k-$k)
	echo "=== $k: $kernel"
	scripts/vm.sh -k "$kernel" -t 900 -- "JITTER=1 /root/agerace/agerace 1000 12000 3000; /root/agerace/agerace2 500 16000" 2>&1 | grep -v '^\[\|KVM'
done
