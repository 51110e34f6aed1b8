#!/bin/bash
# PID 1 of the lab VM. The host's root is mounted read-only over 9p; this mounts what the benchmarks and
# selftests need, runs the command from the kernel command line as root, prints its exit status on the
# console for scripts/vm.sh, and powers off.
# Anywhere else it would mount over the machine's /tmp and /run: it runs as PID 1 only.
if (($$ != 1)); then
	echo "error: scripts/vm-init.sh is the lab VM's init (PID 1), not a command: scripts/vm.sh boots it" >&2
	exit 2
fi
export PATH=/tmp/lab-bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb

lab_root=$(cd "$(dirname "$0")/.." && pwd)
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
# The fresh tmpfs mounts below hide the host's /tmp, /run and /dev/shm; keep the host's root
# reachable so that the lab's paths under them can be bound back (show_host_path).
host_root=/dev/.lab-host-root
mkdir -p "$host_root" && mount --bind / "$host_root"
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm
ln -sf /proc/self/fd /dev/fd	# bash process substitution
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
mount -t bpf bpf /sys/fs/bpf
mount -t cgroup2 cgroup2 /sys/fs/cgroup
ulimit -l unlimited
ip link set lo up 2>/dev/null	# selftests bind to loopback

# Everything runs as root already; the selftests' run_bench_*.sh scripts call sudo.
mkdir -p /tmp/lab-bin
printf '#!/bin/sh\nexec "$@"\n' >/tmp/lab-bin/sudo
chmod +x /tmp/lab-bin/sudo

# show_host_path P: when P lies under one of the fresh tmpfs mounts (a clone or a cache in /tmp),
# bind it back from the host at the same path; read-only, like the rest of the host.
show_host_path() {
	case $1/ in /tmp/* | /run/* | /dev/shm/*) ;; *) return 0 ;; esac
	[[ -e $1 ]] && return 0	# already visible through a bound parent
	mkdir -p "$1" && mount --bind "$host_root$1" "$1"
}

# The kernel hands unknown name=value parameters to init as environment variables.
run_dir=${lab_run:?lab_run= missing from the kernel command line}
show_host_path "${run_dir%/vm/*}"	# the lab cache: kernels, bench builds, this run's files
show_host_path "$run_dir"		# when it lies elsewhere (LAB_VM_RUNS)
show_host_path "$lab_root"
show_host_path "$(cat "$run_dir/cwd")"
# The host's HOME, so that ~ means the same in the guest (read-only there).
HOME=$(cat "$run_dir/home")
BASE=$(cat "$run_dir/base")
export HOME BASE
# shellcheck disable=SC2164 # /tmp is the tmpfs mounted above; PID 1 must not exit here
cd "$(cat "$run_dir/cwd")" 2>/dev/null || cd /tmp
# The command's output goes to the second serial port, apart from the kernel's messages on the
# console (ttyS0), so that vm.sh looks for crashes in kernel messages only.
out=/dev/ttyS1
stty -F "$out" raw -echo 2>/dev/null
bash "$run_dir/cmd" </dev/null >"$out" 2>&1
status=$?
echo "lab-vm-exit-status: $status" >"$out"

# LINUX_REBOOT_CMD_POWER_OFF; with -no-reboot QEMU also exits if only a restart works.
perl -e 'syscall(169, 0xfee1dead, 672274793, 0x4321fedc); syscall(169, 0xfee1dead, 672274793, 0x01234567)'
sleep 10
