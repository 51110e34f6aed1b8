#!/bin/bash
# The runner of a kit (make kit, scripts/kit.sh): run, as root, on a machine booted into one of the
# kit's two kernels (its base's or its series'), every freelist row of the lab's benchmark registry
# with the machine's CPU count, and write the run as a record of the lab (kind bench) that can be
# copied into the lab's records/<base>/bench/. It stands alone: bash and coreutils, no lab, no
# Python. It refuses, with one line, a kernel that is neither of the kit's (told apart by their
# build ids, /sys/kernel/notes), a user who is not root, and fewer than 2 online CPUs.
#   ./run-kit.sh [-p PRODUCERS] [-c CLOCK] [-w SECONDS] [-d SECONDS] [-o DIR]
#   -p  producers of the rows the lab runs on all of the VM's CPUs (-p2 in the registry; an even
#       number for htab-mem's add_del_on_diff_cpu: one less when odd); default: the online CPUs
#   -c  the record's clock: native (default), wall-kvm (default when the CPU reports a hypervisor)
#       or wall-tcg
#   -w, -d  bench's warm-up and measured seconds a row (default: the lab's, from the kit)
#   -o  the records' directory: the record is DIR/<base>/bench/<id>/ (default: records/ in the kit)
# The rows are those of the kit's `rows` file ("family name bench-arguments", the registry's lines
# of the hashmap rows full-update-* and the htab-mem *-prealloc rows). The log, bench.log, has the
# lab's markers (lab-raw: bench NAME FAMILY ... lab-raw-end: rc=N), so that the lab reads it as
# it reads make bench's (scripts/readout.py benchout run LOG). The last line names the record.
set -euo pipefail

usage() {
	sed -n '2,${/^#/!q;s/^# \{0,1\}//;p}' "$0"
}

die() {
	echo "error: $*" >&2
	exit 1
}

if [[ ${1:-} == --help ]]; then
	usage
	exit 0
fi

kit=$(cd "$(dirname "$0")" && pwd)
producers='' clock='' warmup='' duration='' records=''
while getopts :p:c:w:d:o:h opt; do
	case $opt in
	p) producers=$OPTARG ;;
	c) clock=$OPTARG ;;
	w) warmup=$OPTARG ;;
	d) duration=$OPTARG ;;
	o) records=$OPTARG ;;
	h) usage; exit 0 ;;
	:) die "-$OPTARG: needs a value (./run-kit.sh --help)" ;;
	*) die "-$OPTARG: no such option (./run-kit.sh --help)" ;;
	esac
done
shift $((OPTIND - 1))
(($# == 0)) || die "$1: no such argument (./run-kit.sh --help)"

# The kit's facts (scripts/kit.sh wrote them): KIT_NAME, KIT_BASE, KIT_WARMUP, KIT_DURATION,
# KIT_TOOLCHAIN, KIT_BENCH_COMMIT and, for base and series, KIT_<WHICH>_BUILD_ID, _VERSION
# (the bzImage's version string), _COMMIT.
for f in kit.conf rows record.json bench/bench; do
	[[ -f $kit/$f ]] || die "$kit/$f: missing (unpack the whole kit, and run its own run-kit.sh)"
done
# shellcheck source=/dev/null # the kit's own
. "$kit/kit.conf"

num() {
	[[ $2 =~ ^[1-9][0-9]*$ ]] || die "-$1 $2: expected a positive number"
}
warmup=${warmup:-$KIT_WARMUP} duration=${duration:-$KIT_DURATION}
num w "$warmup"
num d "$duration"
online=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
((online >= 2)) || die "$online online CPU: the race rows need 2 at least (a churner and an inserter, each on a CPU of its own)"
producers=${producers:-$online}
num p "$producers"
((producers >= 2 && producers <= online)) || die "-p $producers: expected 2 to $online (the online CPUs)"
if [[ -z $clock ]]; then
	clock=native
	! grep -qw hypervisor /proc/cpuinfo 2>/dev/null || clock=wall-kvm
fi
[[ $clock =~ ^(native|wall-kvm|wall-tcg)$ ]] || die "-c $clock: expected native, wall-kvm or wall-tcg"
records=${records:-$kit/records}
[[ $records == /* ]] || records=$PWD/$records
(($(id -u) == 0)) || die "run as root: bench loads BPF programs (sudo ./run-kit.sh)"

# build_id: the GNU build id of the running kernel, from its ELF notes (/sys/kernel/notes: namesz,
# descsz and type, 4 bytes each, little-endian, then the name and the descriptor, each padded to
# 4 bytes; the build id is type 3, name "GNU"); empty when they cannot be read.
build_id() {
	local -a b
	local n i=0 namesz descsz type
	read -ra b < <(od -An -v -tx1 /sys/kernel/notes 2>/dev/null | tr '\n' ' ') || true
	n=${#b[@]}
	le32() {
		echo $((16#${b[$1 + 3]}${b[$1 + 2]}${b[$1 + 1]}${b[$1]}))
	}
	while ((i + 12 <= n)); do
		namesz=$(le32 "$i") descsz=$(le32 $((i + 4))) type=$(le32 $((i + 8)))
		if ((type == 3 && namesz == 4)) && [[ ${b[*]:i+12:4} == "47 4e 55 00" ]]; then
			local IFS=''
			echo "${b[*]:i+16:descsz}"
			return 0
		fi
		i=$((i + 12 + (namesz + 3) / 4 * 4 + (descsz + 3) / 4 * 4))
	done
}

# Which of the kit's kernels runs: the one of this build id, or (notes unreadable) the one whose
# version string is `uname -r` and `uname -v`.
release=$(uname -r) id=$(build_id) which=''
for w in base series; do
	v=KIT_${w^^}_BUILD_ID version=KIT_${w^^}_VERSION
	if [[ -n $id && $id == "${!v}" ]] ||
		[[ -z $id && ${!version} == "$release "* && ${!version} == *" $(uname -v)" ]]; then
		which=$w
	fi
done
[[ -n $which ]] || die "this kernel (uname -r $release, build id ${id:-unreadable}) is neither the kit's base (build id $KIT_BASE_BUILD_ID) nor its series ($KIT_SERIES_BUILD_ID): boot kernels/base/bzImage or kernels/series/bzImage"
commit_var=KIT_${which^^}_COMMIT
kernel_commit=${!commit_var}

# bench, with the kit's copies of the libraries it links (lib/) where this machine lacks them
cd "$kit/bench"
if ! ./bench --help >/dev/null 2>&1; then
	export LD_LIBRARY_PATH=$kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	err=$(./bench --help 2>&1 >/dev/null) ||
		die "bench does not start on this machine: $(head -n1 <<<"$err")"
fi

# row_args PRODUCERS ARGS...: a row's arguments with its all-CPU producer count (-pN, N > 1) made
# PRODUCERS (one less when odd for htab-mem's add_del_on_diff_cpu, which pairs them)
row_args() {
	local p=$1 a out=()
	shift
	[[ " $* " != *" add_del_on_diff_cpu "* ]] || p=$((p / 2 * 2))
	for a; do
		[[ ! $a =~ ^-p([0-9]+)$ || ${BASH_REMATCH[1]} == 1 ]] || a=-p$p
		out+=("$a")
	done
	echo "${out[*]}"
}

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p;T;q' /proc/cpuinfo 2>/dev/null)
possible=unknown
[[ ! -r /sys/devices/system/cpu/possible ]] ||
	possible=$(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); c += n == 2 ? r[2] - r[1] + 1 : 1 } } END { print c }' \
		/sys/devices/system/cpu/possible)
# The record is made in a directory of its own beside where it lands, and moved there whole at the
# end; a stopped run leaves neither it nor bench behind.
mkdir -p "$records/$KIT_BASE/bench" || die "$records/$KIT_BASE/bench: cannot be made"
tmp=$(mktemp -d "$records/$KIT_BASE/bench/.new-XXXXXX")
bench_pid=''
stop() {
	[[ -z $bench_pid ]] || kill -TERM -- "-$bench_pid" 2>/dev/null || true
	rm -rf "$tmp"
	trap - "$1"
	kill -s "$1" $$
}
trap 'rm -rf "$tmp"' EXIT
trap 'stop INT' INT
trap 'stop TERM' TERM
log=$tmp/bench.log

say() {
	echo "$*" | tee -a "$log"
}
mapfile -t rows < <(awk '$1 !~ /^#/ && NF' "$kit/rows")
say "kit: $KIT_NAME, base $KIT_BASE, bench of $KIT_BENCH_COMMIT ($KIT_TOOLCHAIN)"
say "kernel: $which ($kernel_commit), uname -r $release, uname -v $(uname -v), build id ${id:-unreadable}"
say "machine: $online online CPUs, $possible possible, ${cpu_model:-unknown model}; clock $clock"
say "rows: ${#rows[@]}, -w$warmup -d$duration, producers $producers where the lab runs -p2"
failed=0 i=0 start=$SECONDS
for row in "${rows[@]}"; do
	read -r family name args <<<"$row"
	i=$((i + 1))
	# shellcheck disable=SC2086 # the registry's arguments are words
	args=$(row_args "$producers" $args)
	say ">>> $name ($i/${#rows[@]}): ./bench -w$warmup -d$duration $args"
	echo "lab-raw: bench $name $family" >>"$log"
	rc=0
	# (a process group of its own, which a signal of this script stops whole; set -m makes it)
	set -m
	# shellcheck disable=SC2086 # the registry's arguments are words
	./bench -w"$warmup" -d"$duration" $args >>"$log" 2>&1 &
	bench_pid=$!
	set +m
	wait "$bench_pid" || rc=$?
	bench_pid=''
	echo "lab-raw-end: rc=$rc" >>"$log"
	((rc == 0)) || failed=$((failed + 1))
	summary=$(awk '/^lab-raw: bench / { s = "" } /^(Summary|SUMMARY)/ { s = $0 } END { print s }' "$log")
	echo "    ${summary:-no summary line}$( ((rc == 0)) || echo ", bench exited $rc")"
done
status=$((failed > 0))
say "done: ${#rows[@]} rows, $failed failed, $((SECONDS - start))s"

# json_str TEXT: TEXT as a JSON string
json_str() {
	local s
	s=$(printf '%s' "$1" | tr -d '\000-\010\013-\037')
	s=${s//\\/\\\\} s=${s//\"/\\\"} s=${s//$'\t'/\\t} s=${s//$'\n'/\\n}
	printf '"%s"' "$s"
}
read -r stamp date < <(date -u '+%Y%m%d-%H%M%S %Y-%m-%dT%H:%M:%SZ')
name=kit-$which
record_id=$stamp-$name
while [[ -e $records/$KIT_BASE/bench/$record_id ]]; do
	sleep 1
	read -r stamp date < <(date -u '+%Y%m%d-%H%M%S %Y-%m-%dT%H:%M:%SZ')
	record_id=$stamp-$name
done
command="cd $KIT_NAME && ./run-kit.sh -p $producers -c $clock -w $warmup -d $duration"
machine="$online CPUs ($possible possible, ${cpu_model:-unknown model}), Linux $release"
[[ $clock == native ]] || machine+=", a VM ($clock)"
what="run-kit.sh (make kit): the ${#rows[@]} freelist rows of the registry at -p$producers on the $which kernel of $kernel_commit, $clock"
{
	echo "{"
	echo " \"id\": $(json_str "$record_id"),"
	echo " \"name\": $(json_str "$name"),"
	echo " \"what\": $(json_str "$what"),"
	echo " \"command\": $(json_str "$command"),"
	echo " \"clock\": [$(json_str "$clock")],"
	echo " \"machine\": $(json_str "$machine"),"
	echo " \"date\": $(json_str "$date"),"
	echo " \"status\": $status,"
	echo " \"variants\": {\"kernel\": $(json_str "$kernel_commit"), \"bench\": $(json_str "$KIT_BENCH_COMMIT")},"
	echo " \"params\": {\"kit\": $(json_str "$KIT_NAME"), \"kernel\": $(json_str "$which"), \"release\": $(json_str "$release"), \"build_id\": $(json_str "${id:-unreadable}"), \"cpus\": $(json_str "$online"), \"possible_cpus\": $(json_str "$possible"), \"producers\": $(json_str "$producers"), \"warmup\": $(json_str "$warmup"), \"duration\": $(json_str "$duration"), \"toolchain\": $(json_str "$KIT_TOOLCHAIN")},"
	echo " \"files\": [\"bench.log\"],"
	# the lab's fields (schema, kind, base, lab_commit, lab_dirty, series), from make kit
	sed '1d;$d' "$kit/record.json"
	echo "}"
} >"$tmp/meta.json"
chmod 755 "$tmp"
mv "$tmp" "$records/$KIT_BASE/bench/$record_id"
trap - EXIT
echo "record: $records/$KIT_BASE/bench/$record_id (copy it into the lab's records/$KIT_BASE/bench/)"
exit "$status"
