#!/bin/bash
# Check the series' ordering claims with herd7 against the kernel's memory model (LKMM): each test of
# tools/testing/pcpu_freelist/litmus/ (the series; freelist-v3/, freelist-v4/: those lab variants),
# whose exists clause is the bad outcome, must answer Never, unless its Result line says Sometimes
# (a race the code tolerates, stated as such); each plant of a plants/ beside it (the same test with
# a barrier or a lock removed) Sometimes. herd7 runs as
# `herd7 -conf linux-kernel.cfg` in tools/memory-model of the base's pristine source (make base;
# the series does not touch it). KTAP, one line a test: herd7's verdict and the expected one, then
# "N passed, N failed"; exit 1 on any mismatch. A data race that herd7 flags must be predicted by
# the file's "Result: ... DATARACE" line, as in the kernel's own litmus tests.
# herd7: Debian ships herdtools7 in sid only, built for glibc 2.42 (this machine has 2.36). The
# three .debs it needs (herdtools7, sid's libc6 and libgmp10) are downloaded once with a private
# apt configuration, as base.sh does, unpacked with dpkg-deb into $LAB_CACHE/herdtools7, and herd7
# runs through that libc's own dynamic loader: seconds and 25 MB, where a chroot means a hundred
# packages and a build from source an OCaml toolchain and minutes of CPU.
#   scripts/litmus.sh [-f] [TEST...]
#     -f       fetch herd7 into the cache if missing, print the command that runs it, run no test
#     TEST...  litmus files, or names of tests in tools/testing/pcpu_freelist/litmus (default all)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs

usage() {
	cat <<'USAGE'
usage: scripts/litmus.sh [-f] [TEST...]
  -f  fetch herd7 into the lab cache if missing, print its command line, run no test
  TEST...  litmus files or test names (default: every test of tools/testing/pcpu_freelist/litmus)
USAGE
	exit 0
}

fetch_only=0
while getopts :fh opt; do
	case $opt in
	f) fetch_only=1 ;;
	h) usage ;;
	*) bad_option "$opt" "$OPTARG" "${0##*/} -h" ;;
	esac
done
shift $((OPTIND - 1))

LITMUS_DIR=$LAB_ROOT/tools/testing/pcpu_freelist/litmus
HERD_APT_SOURCE="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main"
HERD_DEBS=(herdtools7 libc6 libgmp10)
herd_dir=$LAB_CACHE/herdtools7
root=$herd_dir/root
libs=$root/usr/lib/x86_64-linux-gnu
herd7=("$libs/ld-linux-x86-64.so.2" --library-path "$libs" "$root/usr/bin/herd7"
	-set-libdir "$root/usr/share/herdtools7/herd")

# The tests to run, one path a line: the arguments (a file, or a name in LITMUS_DIR), or all of them.
tests=()
for t in "$@"; do
	for f in "$t" "$LITMUS_DIR/$t" "$LITMUS_DIR/$t.litmus"; do
		[[ $f == *.litmus && -f $f ]] && break
	done
	[[ $f == *.litmus && -f $f ]] || die "$t: no such litmus test (scripts/litmus.sh -h)"
	tests+=("$(realpath "$f")")
done
((${#tests[@]})) || mapfile -t tests < <(find "$LITMUS_DIR" -name '*.litmus' | LC_ALL=C sort)
((${#tests[@]})) || die "no litmus tests in $LITMUS_DIR"

# fetch_herd7: sid's herdtools7, libc6 and libgmp10 unpacked in $root, once.
fetch_herd7() {
	local apt_dir p deb
	need apt-get dpkg-deb
	debs_apt_opts "$HERD_APT_SOURCE"	# the private apt configuration (lib/debs.sh)
	tmp=$(mktemp -d "$LAB_CACHE/herdtools7-fetch.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM
	step "apt-get update of '$HERD_APT_SOURCE' (private configuration in $apt_dir)" apt_update
	step "downloading ${HERD_DEBS[*]} from sid" apt_download
	mkdir "$tmp/root"
	for p in "${HERD_DEBS[@]}"; do
		deb=$(find "$tmp" -maxdepth 1 -name "${p}_*.deb" -print -quit)
		[[ -n $deb ]] || die "apt-get download left no ${p}_*.deb"
		# shellcheck disable=SC2016 # dpkg-deb's fields, not the shell's
		dpkg-deb --show --showformat='${Package} ${Version}\n' "$deb" >>"$tmp/root/versions"
		if [[ $p == herdtools7 ]]; then
			# herd7 and its models only, not the 250 MB of the other tools
			dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/root" ./usr/bin/herd7 ./usr/share/herdtools7/herd
		else
			dpkg-deb -x "$deb" "$tmp/root"
		fi
	done
	rm -rf "$root"
	mkdir -p "$herd_dir"
	mv "$tmp/root" "$root"
	note "herd7 in $root: $(paste -sd, "$root/versions" | sed 's/,/, /g')"
}
# apt refuses a suite it cannot verify (E:) and only warns (W:) when the archive is unreachable:
# the lab takes neither.
apt_update() {
	local why
	apt-get "${apt_opts[@]}" -q update >"$tmp/update.log" 2>&1 || true
	why=$(grep -m1 -E '^(E|W): ' "$tmp/update.log") || return 0
	die "apt could not fetch '$HERD_APT_SOURCE': ${why#?: }"
}
apt_download() {
	(cd "$tmp" && apt-get "${apt_opts[@]}" -q download "${HERD_DEBS[@]}") >"$tmp/download.log" 2>&1 ||
		die "apt-get download ${HERD_DEBS[*]} failed: $(grep -m1 -E '^(E|W): ' "$tmp/download.log")"
}

mkdir -p "$LAB_CACHE"
if [[ ! -f $root/versions ]]; then
	# one fetch at a time; the lock goes with the script
	exec 6>"$herd_dir.lock"
	if ! flock -n 6; then
		note "waiting for another fetch of herd7"
		flock 6
	fi
	[[ -f $root/versions ]] || fetch_herd7
fi
if ((fetch_only)); then
	printf '%q ' "${herd7[@]}"
	echo
	exit 0
fi

model=$BASE_DIR/tools/memory-model
[[ -f $model/linux-kernel.cfg ]] || die "no $model/linux-kernel.cfg: the $BASE base is not in the cache (run: make base)"

# judge FILE: one KTAP line for the test, from herd7's answer and where the test lives.
judge() {
	local file=$1 name expected result verdict flags out want_race='' race=''
	name=${file#"$LITMUS_DIR"/}
	name=${name%.litmus}
	expected=Never
	[[ $file != */plants/* ]] || expected=Sometimes
	result=$(sed -n 's/^[( ]\* Result: \(.*\)/\1/p' "$file" | head -n1)
	# a test of a race the code tolerates (Miss+...) says so: Sometimes
	[[ $file == */plants/* || ${result%% *} != Sometimes ]] || expected=Sometimes
	[[ $result != *DATARACE* ]] || want_race=' (data race)'
	out=$(cd "$model" && timeout 60 "${herd7[@]}" -conf linux-kernel.cfg "$file" 2>&1) || true
	verdict=$(awk '$1 == "Observation" { print $3 }' <<<"$out")
	flags=$(awk '$1 == "Flag" { print $2 }' <<<"$out" | paste -sd' ')
	[[ $flags != data-race ]] || { race=' (data race)' flags=''; }
	if [[ -z $verdict ]]; then
		ktap_line "not ok" "$name: herd7 gave no verdict, expected $expected"
		sed 's/^/# /' <<<"$out" | head -n 10
	elif [[ ${result%% *} != "$expected" ]]; then
		ktap_line "not ok" "$name: $verdict$race, but its Result line says '$result': a plant says Sometimes"
	elif [[ -n $flags ]]; then
		ktap_line "not ok" "$name: $verdict, herd7 flags: $flags"
	else
		ktap_line "$([[ $verdict$race == "$expected$want_race" ]] && echo ok || echo 'not ok')" \
			"$name: $verdict$race, expected $expected$want_race"
	fi
}
n=0 failed=0
ktap_line() {
	n=$((n + 1))
	[[ $1 == ok ]] || failed=$((failed + 1))
	echo "$1 $n $2"
}

start=$SECONDS
echo "TAP version 13"
echo "1..${#tests[@]}"
for f in "${tests[@]}"; do
	judge "$f"
done
echo "# Totals: pass:$((n - failed)) fail:$failed skip:0"
echo "# herd7 $(head -n1 "$root/versions" | cut -d' ' -f2), $model, ${#tests[@]} tests in $((SECONDS - start))s"
echo "$((n - failed)) passed, $failed failed"
((failed == 0))
