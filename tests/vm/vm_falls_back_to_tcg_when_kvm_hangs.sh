#!/bin/bash
# A KVM that accepts a stopped VM but never boots a guest (simulated: a QEMU wrapper that hangs
# whenever it is asked for -accel kvm, and a fake /dev/kvm): vm.sh probes by booting the kernel,
# falls back to TCG with one line saying why, and probes once per machine boot.
# Plant: the old KVM probe (a stopped -S VM stays alive for 2 s): it never falls back.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

vm_falls_back_to_tcg_when_kvm_hangs() {
	local fake=$scratch/fake-kvm out i
	mkdir -p "$fake/runs"
	: >"$fake/kvm"
	cat >"$fake/qemu-system-x86_64" <<WRAPPER
#!/bin/bash
for a in "\$@"; do
	[[ \$a == kvm ]] && { echo "\$*" >>"$fake/kvm-calls"; exec sleep 1000; }
done
exec $(command -v qemu-system-x86_64) "\$@"
WRAPPER
	chmod +x "$fake/qemu-system-x86_64"
	for i in 1 2; do
		out=$(env -u ACCEL LAB_QEMU="$fake/qemu-system-x86_64" LAB_KVM_DEV="$fake/kvm" LAB_KVM_PROBE_SECS=5 \
			LAB_VM_RUNS="$fake/runs" LAB_KVM_VERDICTS="$fake/runs" "$S/vm.sh" -k "$(vm_kernel)" -t 120 -s 40 -- 'echo guest-ran; exit 0' 2>&1) ||
			{ echo "$out"; echo "run $i failed"; return 1; }
		echo "$out"
		grep -qx guest-ran <<<"$out"
		[[ $(grep -c 'KVM hangs: .*; using TCG' <<<"$out") == 1 ]] || { echo "run $i: no one-line TCG fallback"; return 1; }
	done
	[[ $(wc -l <"$fake/kvm-calls") == 1 ]] || { echo "KVM probed $(wc -l <"$fake/kvm-calls") times, expected once"; return 1; }
}

run_test vm_falls_back_to_tcg_when_kvm_hangs "$@"
