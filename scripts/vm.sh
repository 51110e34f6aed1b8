#!/bin/bash
# Boot a lab kernel in QEMU (KVM where a guest really boots under it, else TCG), run one command in
# it as root, stream its output, exit with its status; or (-I, make vm without CMD) open a shell
# in the guest on this terminal, as selftests/bpf's vmtest.sh -s does.
#   scripts/vm.sh [options] [--] command...     (the options: scripts/vm.sh -h, usage() below)
#   scripts/vm.sh [options] -I [[--] command...]
# The command's output goes to stdout (the guest's second serial port); the kernel's messages go to
# stderr (the console, first serial port); a crash is looked for in the kernel's messages only.
# The host's root is shared read-only over 9p, the way virtme-ng does it, so every host path works
# in the guest; /tmp and /run are fresh tmpfs mounts there. Ctrl-C stops QEMU and removes the run
# directory. ACCEL=tcg or ACCEL=kvm skips the KVM probe. The shell (-I) is the guest's third serial
# port on QEMU's stdio: Ctrl-C there goes to the guest, `exit` or Ctrl-D ends the VM; whichever way
# it ends (exit, a signal to vm.sh), no QEMU, no run directory and no raw terminal is left.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<USAGE
usage: scripts/vm.sh [options] [--] command...
       scripts/vm.sh [options] -I [[--] command...]
  -I              a shell in the guest on this terminal (after the command, if one is given), as
                  vmtest.sh -s; exit or Ctrl-D ends the VM, Ctrl-C goes to the guest. No silence
                  limit, and no time limit unless -t or TIMEOUT sets one (stdin not a terminal:
                  the default time limit)
  -k DIR|bzImage  kernel to boot (default: the tree's HEAD, built if needed)
  -c N            online CPUs (default $VM_CPUS)
  -p N            possible CPUs, QEMU's maxcpus (default: same as -c)
  -m SIZE         memory (default $VM_MEM)
  -t SECONDS      time limit for the whole VM (default $VM_TIMEOUT)
  -s SECONDS      a guest silent this long (no console, no command output) hangs (default $VM_SILENCE)
  -i              deterministic clock: -icount shift=0,sleep=off, one online CPU
environment: ACCEL=kvm|tcg skips the KVM probe; TCG_THREAD=multi|single runs TCG's vCPUs on a
  host thread each (default $VM_TCG_THREAD) or all on one
USAGE
	exit 0
}

kernel='' kernel_set=0 cpus=${CPUS:-} maxcpus=${MAXCPUS:-} mem=${MEM:-} timeout=${TIMEOUT:-}
icount=${ICOUNT:-0} silence=${SILENCE:-} tcg_thread=${TCG_THREAD:-} shell=0
while getopts :k:c:p:m:t:s:iIh opt; do
	case $opt in
	I) shell=1 ;;
	k) kernel=$OPTARG kernel_set=1 ;;
	c) cpus=$OPTARG ;;
	p) maxcpus=$OPTARG ;;
	m) mem=$OPTARG ;;
	t) timeout=$OPTARG ;;
	s) silence=$OPTARG ;;
	i) icount=1 ;;
	h) usage ;;
	*) bad_option "$opt" "$OPTARG" "scripts/vm.sh -h" ;;
	esac
done
shift $((OPTIND - 1))
# The options set the knobs of the same names (-c CPUS, -p MAXCPUS, -m MEM, -t TIMEOUT, -s SILENCE,
# -i ICOUNT=1): one check of both, lib.sh's. QEMU 7.2 hangs bringing up secondary CPUs under
# -icount, so the deterministic clock runs on one online CPU (possible CPUs can still be many).
CPUS=$cpus MAXCPUS=$maxcpus MEM=$mem TIMEOUT=$timeout SILENCE=$silence ICOUNT=$icount TCG_THREAD=$tcg_thread check_knobs
(($# > 0 || shell)) || die "no command given (usage: vm.sh [options] -- command..., or -I for a shell)"
((kernel_set == 0)) || [[ -n $kernel ]] || die "-k: empty kernel path (did the kernel lookup or build fail?)"
((icount == 0)) || cpus=1
cpus=${cpus:-$VM_CPUS}
maxcpus=${maxcpus:-$cpus}
# A shell waits for its user: no silence limit (its output goes to the terminal, not to the files
# watched), and a time limit only when one is asked for or nobody types (stdin not a terminal).
if ((shell)); then
	silence=0
	[[ -t 0 ]] || timeout=${timeout:-$VM_TIMEOUT}
	timeout=${timeout:-0}
fi
mem=${mem:-$VM_MEM} timeout=${timeout:-$VM_TIMEOUT} silence=${silence:-$VM_SILENCE} tcg_thread=${tcg_thread:-$VM_TCG_THREAD}
qemu=${LAB_QEMU:-qemu-system-x86_64}
need "$qemu" perl

if [[ -z $kernel ]]; then
	kernel=$("$LAB_ROOT/scripts/kernel.sh" HEAD)
fi
[[ -d $kernel ]] && kernel=$kernel/bzImage
[[ -f $kernel ]] || die "kernel '$kernel' not found"

runs=${LAB_VM_RUNS:-$LAB_CACHE/vm}	# parent of the per-run directories
mkdir -p "$runs"
run_dir=$(mktemp -d "$runs/run.XXXXXX")
pids=()
term_state=''	# the terminal's settings before QEMU made it raw (-I on a terminal)
((shell == 0)) || [[ ! -t 0 ]] || term_state=$(stty -g)
# Stop whatever this run started (QEMU, the output streams), then remove the run directory.
stop_all() {
	local pid
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	pids=()
}
kvm_tmp=''	# kvm_usable()'s verdict on its way into place
# A second signal (make regress passes one on, and so does own_group) must not cut the clean-up
# short: it would leave QEMU running and the run directory behind.
clean_up() {
	trap '' INT TERM HUP
	stop_all
	rm -rf "$run_dir" ${kvm_tmp:+"$kvm_tmp"}
	[[ -z $term_state ]] || stty "$term_state" 2>/dev/null || true
}
trap clean_up EXIT
# Background jobs of a script ignore SIGINT: QEMU never sees the terminal's Ctrl-C, this trap
# stops it. 130/143: the shell's status for death by SIGINT/SIGTERM.
trap 'note "interrupted: stopping the VM"; exit 130' INT
trap 'exit 143' TERM HUP

# start_qemu NAME QEMU_ARGS...: QEMU in the background, its own output to $run_dir/NAME.qemu;
# the VM of -I (NAME vm) has this script's stdin and stdout, the shell's terminal, as its stdio.
((shell == 0)) || exec {term_in}<&0 {term_out}>&1
start_qemu() {
	local name=$1
	shift
	if ((shell)) && [[ $name == vm ]]; then
		"$qemu" "$@" <&"$term_in" >&"$term_out" 2>"$run_dir/$name.qemu" &
	else
		"$qemu" "$@" </dev/null >"$run_dir/$name.qemu" 2>&1 &
	fi
	qemu_pid=$!
	pids+=("$qemu_pid")
}

# stop_qemu: TERM, then KILL if QEMU is still there 5 s later; sets qemu_rc.
stop_qemu() {
	local i
	kill "$qemu_pid" 2>/dev/null || true
	for ((i = 0; i < 50; i++)); do
		kill -0 "$qemu_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$qemu_pid" 2>/dev/null || true
	qemu_rc=0
	wait "$qemu_pid" 2>/dev/null || qemu_rc=$?
}

# KVM is used only when the lab's kernel really boots under it: /dev/kvm can exist and accept a
# stopped VM while QEMU aborts setting MSR 0x10a (one machine), a real guest never gets past the
# firmware (another), and (a nested host, 2026-12-03) a
# guest can print the decompressor's lines and then stop, or die in start_kernel with "KVM internal
# error ... emulation failure". So the probe boots the kernel with no root to the panic at its end:
# QEMU (-no-reboot, panic=-1) must exit by itself within the deadline, the console showing the
# panic. A verdict holds until the machine reboots. "works" holds for the kernel image probed only:
# on that host a 6.12 guest printed the decompressor's lines under KVM and a 7.3 guest nothing at
# all, so one kernel says nothing of another (CI, trusting the older probe's verdict of another
# kernel, sent eleven 7.3 VMs to KVM, each waiting 300 s for its silence limit); a failure with any
# kernel sends every VM to TCG. A verdict is $LAB_CACHE/vm/kvm-verdict.<boot_id>.<qemu, device,
# probe version>.<kernel digest>.
# kvm_probe_version names the probe in the verdict's key: no verdict of an older probe (the first
# one was content with a first console line) is trusted.
kvm_dev=${LAB_KVM_DEV:-/dev/kvm}
kvm_probe_secs=${LAB_KVM_PROBE_SECS:-30}
kvm_probe_version=2
kvm_verdicts=${LAB_KVM_VERDICTS:-$LAB_CACHE/vm}
# kvm_key: this boot of the machine, this QEMU, this KVM device, this probe
kvm_key() {
	echo "$(cat /proc/sys/kernel/random/boot_id).$(echo "$(command -v "$qemu") $kvm_dev probe-$kvm_probe_version" | sha1sum | cut -c1-8)"
}
# kvm_verdict_file: the verdict for $kernel
kvm_verdict_file() {
	echo "$kvm_verdicts/kvm-verdict.$(kvm_key).$(sha1sum <"$kernel" | cut -c1-8)"
}
kvm_probe() {
	local i err last
	start_qemu probe -machine q35 -accel kvm -cpu host -smp 1 -m 256 -nodefaults -no-user-config \
		-bios /usr/share/qemu/qboot.rom -no-reboot -display none -monitor none \
		-serial "file:$run_dir/probe.console" -kernel "$kernel" \
		-append "console=ttyS0 earlyprintk=serial,ttyS0 loglevel=8 panic=-1"
	for ((i = 0; i < kvm_probe_secs * 10; i++)); do
		kill -0 "$qemu_pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$qemu_pid" 2>/dev/null; then
		stop_qemu
		if err=$(kvm_error "$run_dir/probe.qemu"); then
			echo "fails: $err"
		else
			if [[ -s $run_dir/probe.console ]]; then
				last="last console line: $(tail -n1 "$run_dir/probe.console" | tr -d '\r' | cut -c1-80)"
			else
				last='no console output'
			fi
			echo "hangs: the lab kernel did not boot to its end within ${kvm_probe_secs}s under KVM ($last)"
		fi
		return
	fi
	stop_qemu
	if grep -q 'Kernel panic' "$run_dir/probe.console"; then
		echo works
	else
		echo "fails: QEMU -accel kvm exited with status $qemu_rc before the kernel's end: $(tail -n1 "$run_dir/probe.qemu")"
	fi
}
# save_kvm_verdict TEXT: the verdict file says TEXT, written through a temporary file of its own
# (two VMs started at once, make regress VMS=2, both probe)
save_kvm_verdict() {
	local file
	file=$(kvm_verdict_file)
	kvm_tmp=$(mktemp "$kvm_verdicts/.kvm-verdict.XXXXXX")	# not a kvm-verdict.* that kvm_usable reads
	echo "$1" >"$kvm_tmp" && mv -f "$kvm_tmp" "$file" && kvm_tmp=''
}
# kvm_error FILE: the first "KVM internal error" line of QEMU's output FILE; fails without one
kvm_error() {
	grep -m1 'KVM internal error' "$1"
}
kvm_usable() {
	local file verdict
	[[ -w $kvm_dev ]] || return 1
	mkdir -p "$kvm_verdicts"
	for file in "$kvm_verdicts/kvm-verdict.$(kvm_key)."*; do
		[[ -f $file ]] || continue
		verdict=$(cat "$file")
		[[ $verdict == works* ]] && continue
		note "KVM $verdict; using TCG (verdict kept until reboot in $file)"
		return 1
	done
	file=$(kvm_verdict_file)
	if [[ ! -f $file ]]; then
		verdict=$(kvm_probe)
		save_kvm_verdict "$verdict (probed $(date -u '+%F %T UTC'))"
	fi
	verdict=$(cat "$file")
	[[ $verdict == works* ]] && return 0
	note "KVM $verdict; using TCG (verdict kept until reboot in $file)"
	return 1
}

case ${ACCEL:-} in
kvm) use_kvm=1 ;;
tcg) use_kvm=0 ;;
'') use_kvm=0; ((icount)) || ! kvm_usable || use_kvm=1 ;;
*) die "ACCEL=${ACCEL}: expected kvm, tcg or nothing (probe)" ;;
esac
if ((use_kvm)); then
	accel=(-accel kvm -cpu host)
elif ((maxcpus > 255)); then
	# APIC IDs above 254 need x2APIC, which QEMU 7.2 emulates only with KVM.
	die "TCG supports at most 255 possible CPUs (QEMU $("$qemu" --version | awk 'NR==1 { print $4 }') has no x2APIC emulation)"
elif ((icount)); then
	# shellcheck disable=SC2054 # commas separate QEMU's suboptions, not array elements
	accel=(-accel tcg,thread=single -icount shift=0,sleep=off -cpu max)
else
	accel=(-accel "tcg,thread=$tcg_thread" -cpu max)
fi

if ((shell)); then
	# The guest's shell: its third serial port (ttyS2, QEMU's stdio) as its controlling terminal,
	# the size and TERM of this one, a prompt that says where it is; the command first, if any.
	size=''
	[[ ! -t 0 ]] || size=$(stty size 2>/dev/null) || size=''
	shellrc=$run_dir/shellrc
	# (the size in the shell: a serial port forgets it at its last close, not its other settings)
	echo "${size:+stty rows ${size% *} cols ${size#* } 2>/dev/null}" >"$shellrc"
	echo '[[ ! -r ~/.bashrc ]] || . ~/.bashrc' >>"$shellrc"
	echo "PS1='(lab vm $BASE) \w # '" >>"$shellrc"
	if (($#)); then
		printf '%s\n' "$*" >"$run_dir/first"
		echo "bash $(printf %q "$run_dir/first")" >>"$shellrc"
	fi
	{
		echo "stty -F /dev/ttyS2 sane 2>/dev/null"
		echo "export TERM=$(printf %q "${TERM:-dumb}")"
		echo "exec setsid -c bash --rcfile $(printf %q "$shellrc") -i <>/dev/ttyS2 >&0 2>&0"
	} >"$run_dir/cmd"
	note "booting $kernel: a shell in the guest on this terminal; exit or Ctrl-D ends the VM"
else
	printf '%s\n' "$*" >"$run_dir/cmd"
fi
pwd >"$run_dir/cwd"
echo "$HOME" >"$run_dir/home"
echo "$BASE" >"$run_dir/base"	# the lab's scripts in the guest work on the same base
console=$run_dir/console.log	# ttyS0: the kernel's messages
output=$run_dir/output.log	# ttyS1: the command's output and exit status
: >"$console"
: >"$output"

# root=root, not root=/dev/root: 6.1 strips a /dev/ from root= before it mounts a filesystem
# without a device, 6.12 does not, so root=/dev/root boots only 6.1.
append="console=ttyS0 loglevel=5 panic=-1 trace_clock=global oops=panic root=root rootfstype=9p ro
	rootflags=trans=virtio,version=9p2000.L,cache=loose,msize=524288
	init=$LAB_ROOT/scripts/vm-init.sh lab_run=$run_dir"
# The possible CPUs beyond the online ones (config/<base>/possible-cpus.conf, VM_OFFLINE_CPUS): absent
# (-smp N,maxcpus=M: QEMU lists them in the MADT as disabled, which 6.1 counts as possible), or
# present but never brought up (-smp M and the kernel's maxcpus=N).
case $VM_OFFLINE_CPUS in
absent) smp=$cpus,maxcpus=$maxcpus ;;
present)
	smp=$maxcpus
	append+=" maxcpus=$cpus"
	;;
*) die "VM_OFFLINE_CPUS=$VM_OFFLINE_CPUS in config/$BASE/possible-cpus.conf: expected absent or present" ;;
esac
shell_serial=()
# shellcheck disable=SC2054 # commas separate QEMU's suboptions, not array elements
((shell == 0)) || shell_serial=(-chardev stdio,id=shell,signal=off -serial chardev:shell)
# shellcheck disable=SC2086,SC2116 # $(echo $append): its newlines and runs of spaces made one space each
start_qemu vm -machine q35 "${accel[@]}" \
	-smp "$smp" -m "$mem" -nodefaults -no-user-config -bios /usr/share/qemu/qboot.rom \
	-no-reboot -display none -monitor none \
	-serial "file:$console" -serial "file:$output" ${shell_serial[@]+"${shell_serial[@]}"} \
	-kernel "$kernel" -append "$(echo $append)" \
	-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=root,mount_tag=root
vm_pid=$qemu_pid
# Stream both ports while QEMU runs: kernel messages to stderr, the command's output to stdout.
# tail ends by itself once QEMU has exited and the files are read to their end.
# A shell's terminal gets no kernel messages (dmesg in the guest has them).
streams=()
if ((shell == 0)); then
	tail -n +1 -F --pid="$vm_pid" "$console" 2>/dev/null | sed -u 's/\r$//' >&2 &
	streams+=($!)
fi
tail -n +1 -F --pid="$vm_pid" "$output" 2>/dev/null | sed -u 's/\r$//' |
	grep --line-buffered -v '^lab-vm-exit-status: ' &
streams+=($!)
pids+=("${streams[@]}")

# Watch the time limit and the silence limit.
size_of() {
	local s
	s=$(stat -c %s "$@" | paste -sd+)
	echo $((s))
}
start=$SECONDS last_size=0 last_change=$SECONDS why='' err=''
while kill -0 "$vm_pid" 2>/dev/null; do
	size=$(size_of "$console" "$output")
	if ((size != last_size)); then
		last_size=$size last_change=$SECONDS
	elif ((silence && SECONDS - last_change >= silence)); then
		why="VM hangs: no output from the guest for ${silence}s"
		break
	fi
	if ((timeout && SECONDS - start >= timeout)); then
		why="VM timed out after ${timeout}s"
		break
	fi
	# QEMU keeps a guest that KVM could not run, stopped: end now, not at the silence limit, and
	# let the VMs after this one use TCG.
	if ((use_kvm)) && err=$(kvm_error "$run_dir/vm.qemu"); then
		why="KVM stopped the guest: $err (ACCEL=tcg runs it under TCG)"
		[[ -n ${ACCEL:-} ]] || save_kvm_verdict "fails: $err in a guest (seen $(date -u '+%F %T UTC'))"
		break
	fi
	sleep 1
done
qemu_pid=$vm_pid
stop_qemu
# Let the streams print the last lines (tail polls once a second), then stop what is left.
for ((i = 0; i < 50; i++)); do
	alive=0
	for pid in "${streams[@]}"; do
		kill -0 "$pid" 2>/dev/null && alive=1
	done
	((alive)) || break
	sleep 0.1
done
stop_all

status=$(sed -n 's/^lab-vm-exit-status: \([0-9]*\).*/\1/p' "$output" | tail -n1)
last_lines() {
	echo "---- last console lines ----" >&2
	tail -n "$1" "$console" | sed 's/\r$//' >&2
	if grep -qv '^lab-vm-exit-status: ' "$output"; then
		echo "---- last lines of the command's output ----" >&2
		{ grep -v '^lab-vm-exit-status: ' "$output" || true; } | tail -n 5 | sed 's/\r$//' >&2
	fi
}
# A KCSAN report ("BUG: KCSAN: data-race in ...") is not a crash: the kernel goes on, and the
# runner of a KCSAN kernel judges its reports (check-debug.sh, against config/<base>/known-splats).
if awk '/Kernel panic|BUG:|Oops:/ && !/BUG: KCSAN: / { crash = 1 } END { exit !crash }' "$console"; then
	last_lines 25
	die "the kernel crashed (see above)"
fi
if [[ -n $why ]]; then
	last_lines 15
	die "$why"
fi
# A signal that reached QEMU and not this script (a background job ignores SIGINT, and so does
# everything it starts): an interruption, not a VM that failed; the shell's status for it.
if [[ -z $status ]] && sig=$(sed -n 's/.*terminating on signal \([0-9]*\).*/\1/p' "$run_dir/vm.qemu" 2>/dev/null | head -n1) &&
	[[ -n $sig ]]; then
	note "interrupted: QEMU was stopped by signal $sig"
	exit $((128 + sig))
fi
if [[ -z $status ]]; then
	last_lines 15
	[[ ! -s $run_dir/vm.qemu ]] || sed 's/^/qemu: /' "$run_dir/vm.qemu" >&2
	die "VM ended without reporting the command's exit status (qemu exit code $qemu_rc)"
fi
exit "$status"
