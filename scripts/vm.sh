#!/bin/bash
# Boot a lab kernel in QEMU (KVM where it works, else TCG), run one command in it as root, stream its output, exit with its status.
#   scripts/vm.sh [options] [--] command...
#     -k DIR|bzImage  kernel to boot (default: the tree's HEAD, built if needed)
#     -c N            online CPUs (default 2)
#     -p N            possible CPUs, QEMU's maxcpus (default: same as -c)
#     -m SIZE         memory (default 2G)
#     -t SECONDS      time limit for the whole VM (default 600)
#     -i              deterministic clock: -icount shift=0,sleep=off, one online CPU
# The host's root is shared read-only over 9p, the way virtme-ng does it, so every host path works
# in the guest; /tmp and /run are fresh tmpfs mounts there.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
	sed -n '2,11s/^# \{0,1\}//p' "$0"
	exit "${1:-0}"
}

kernel='' cpus=${CPUS:-} maxcpus=${MAXCPUS:-} mem=${MEM:-2G} timeout=${TIMEOUT:-600} icount=${ICOUNT:-0}
while getopts k:c:p:m:t:ih opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	c) cpus=$OPTARG ;;
	p) maxcpus=$OPTARG ;;
	m) mem=$OPTARG ;;
	t) timeout=$OPTARG ;;
	i) icount=1 ;;
	h) usage ;;
	*) usage 2 >&2 ;;
	esac
done
shift $((OPTIND - 1))
(($# > 0)) || die "no command given (usage: vm.sh [options] -- command...)"
# QEMU 7.2 hangs bringing up secondary CPUs under -icount, so the deterministic clock runs on one
# online CPU (possible CPUs can still be many).
if ((icount)); then
	[[ ${cpus:-1} == 1 ]] || die "the deterministic clock (-i) runs one online CPU; drop -c/CPUS (use -p for possible CPUs)"
	cpus=1
fi
cpus=${cpus:-2}
maxcpus=${maxcpus:-$cpus}
[[ $cpus =~ ^[1-9][0-9]*$ && $maxcpus =~ ^[1-9][0-9]*$ ]] || die "CPU counts must be positive integers"
((maxcpus >= cpus)) || die "possible CPUs ($maxcpus) must be at least the online CPUs ($cpus)"
[[ $timeout =~ ^[1-9][0-9]*$ ]] || die "timeout must be a positive number of seconds"
need qemu-system-x86_64 perl

if [[ -z $kernel ]]; then
	kernel=$("$LAB_ROOT/scripts/kernel.sh" "$(git -C "$TREE" rev-parse HEAD)")
fi
[[ -d $kernel ]] && kernel=$kernel/bzImage
[[ -f $kernel ]] || die "kernel '$kernel' not found"

# /dev/kvm can exist and still be unusable (nested virtualization that refuses the host CPU's MSRs):
# a usable KVM keeps a stopped VM (-S) alive until the timeout kills it.
kvm_works() {
	local rc
	[[ -w /dev/kvm ]] || return 1
	rc=$(timeout 2 qemu-system-x86_64 -accel kvm -cpu host -machine q35 -m 64 -S \
		-display none -monitor none -serial none >/dev/null 2>&1; echo $?) 2>/dev/null
	((rc == 124))
}

if ((!icount)) && [[ ${ACCEL:-} != tcg ]] && kvm_works; then
	accel=(-accel kvm -cpu host)
elif ((maxcpus > 255)); then
	# APIC IDs above 254 need x2APIC, which QEMU 7.2 emulates only with KVM.
	die "TCG supports at most 255 possible CPUs (QEMU $(qemu-system-x86_64 --version | awk 'NR==1 { print $4 }') has no x2APIC emulation)"
elif ((icount)); then
	accel=(-accel tcg,thread=single -icount shift=0,sleep=off -cpu max)
else
	accel=(-accel tcg,thread=multi -cpu max)
fi

mkdir -p "$LAB_CACHE/vm"
run_dir=$(mktemp -d "$LAB_CACHE/vm/run.XXXXXX")
trap 'rm -rf "$run_dir"' EXIT
printf '%s\n' "$*" >"$run_dir/cmd"
pwd >"$run_dir/cwd"
echo "$HOME" >"$run_dir/home"
log=$run_dir/console.log

append="console=ttyS0 loglevel=5 panic=-1 trace_clock=global oops=panic root=/dev/root rootfstype=9p ro
	rootflags=trans=virtio,version=9p2000.L,cache=loose,msize=524288
	init=$LAB_ROOT/scripts/vm-init.sh lab_run=$run_dir"
set +e
timeout -k 5 "$timeout" qemu-system-x86_64 -machine q35 "${accel[@]}" \
	-smp "$cpus,maxcpus=$maxcpus" -m "$mem" -nodefaults -no-user-config -bios /usr/share/qemu/qboot.rom -no-reboot -nographic -monitor none -serial stdio \
	-kernel "$kernel" -append "$(echo $append)" \
	-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=root,mount_tag=root </dev/null 2>&1 |
	sed -u 's/\r$//' | tee "$log" | grep --line-buffered -v '^lab-vm-exit-status: '
qemu_rc=${PIPESTATUS[0]}
set -e

status=$(sed -n 's/^lab-vm-exit-status: \([0-9]*\).*/\1/p' "$log" | tail -n1)
if grep -qE 'Kernel panic|BUG:|Oops:' "$log"; then
	echo "---- last console lines ----" >&2
	tail -n 25 "$log" >&2
	die "the kernel crashed (see above)"
fi
if [[ -z $status ]]; then
	echo "---- last console lines ----" >&2
	tail -n 15 "$log" >&2
	((qemu_rc == 124 || qemu_rc == 137)) && die "VM timed out after ${timeout}s"
	die "VM ended without reporting the command's exit status (qemu exit code $qemu_rc)"
fi
exit "$status"
