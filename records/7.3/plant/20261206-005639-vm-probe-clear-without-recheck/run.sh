#!/bin/bash
# The VM probe of lab/plants/freelist-v4-7.3-clear-without-recheck.patch, on the 7.3 series' bench
# kernel with the plant (mkplant.sh NAME) and without (mkplant.sh none):
#   agerace ROUNDS AGE_US SPAN LOW: per round, head 0 emptied with its bit set, AGE_US to age, then
#     CPU 0 and CPU 1 each fail an insert of a key of its own at once (CPU 0 LOW..LOW+SPAN busy
#     loops later, swept), then a delete on CPU 0 must be found by an insert on CPU 1 ("CAUGHT":
#     it was not; the map is then made again);
#   agerace2 ROUNDS AGE_US: both CPUs fail inserts in a loop for AGE_US after head 0's last push,
#     then the same check; stops at the first catch.
# Built with: gcc -O2 -static -pthread -Wall -o agerace agerace.c (and agerace2); the guest sees
# the host's /root.
set -u
cd "${LAB:-/work/main}"
export BASE=7.3
for k in plant none; do
	kernel=$(cat "/tmp/agerace/k-$k")
	echo "=== $k: $kernel"
	scripts/vm.sh -k "$kernel" -t 900 -- "/root/agerace/agerace 600 12000 6000 -3000; /root/agerace/agerace2 500 16000" 2>&1 | grep -v '^\[\|KVM'
done
