#!/bin/bash
# make kit: one tarball to measure the freelist rows on a machine the lab does not run on (real
# hardware, more CPUs): the base's and the series' bench kernels (bzImage, as make kernel builds
# them for REV=lab-base and REV, default HEAD), the series' bench (as make bench-build builds it,
# with the libraries it links beyond glibc's), and run-kit.sh (scripts/guest/run-kit.sh), which a
# person runs as root on that machine, booted into one of the two kernels: it runs every freelist
# row of the registry (the hashmap rows full-update-*, the htab-mem *-prealloc rows) with the
# machine's CPU count, and writes a record of the lab (records/<base>/bench/<id>/: meta.json and
# bench.log) to copy into records/. It tells the kernels apart by their build ids and refuses any
# other kernel.
#   scripts/kit.sh        (BASE, REV: the base and the series' commit of the tree)
# What is missing is built first (scripts/kernel.sh, scripts/bench-build.sh). The tarball lands in
# $LAB_CACHE/<base>/kit/; the last line names it. The kernels are the lab's VM kernels (tinyconfig +
# config/bench.config): they mount their root over virtio 9p, and have no disk driver or initramfs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs
(($# == 0)) || die "$1: no such argument (usage: scripts/kit.sh; BASE= and REV= choose the base and the series)"
need readelf tar gzip od dd

# kit_rows: the freelist rows of the registry, "family name arguments" each
kit_rows() {
	registry_select vm | awk '($1 == "hashmap" && $2 ~ /^full-update-/) || ($1 == "htab-mem" && $2 ~ /-prealloc$/)'
}

# bzimage_version BZIMAGE: the kernel's version string in the bzImage's setup header (its
# kernel_version field: an offset from 0x200, at 0x20e), "RELEASE (USER@HOST) #N ... DATE", as
# `uname -r` and `uname -v` give it on that kernel
bzimage_version() {
	local off
	[[ $(dd if="$1" bs=1 skip=514 count=4 2>/dev/null) == HdrS ]] || return 1
	off=$(od -An -tu2 -j526 -N2 "$1" | tr -d ' ')
	dd if="$1" bs=1 skip=$((512 + off)) count=256 2>/dev/null | tr '\0' '\n' | head -n1
}

start=$SECONDS
base_commit=$(tree_commit "$BASE_TAG")
series_commit=$(tree_commit "${REV:-HEAD}")
[[ $base_commit != "$series_commit" ]] || die "REV=${REV:-HEAD} is the base ($BASE_TAG): the kit needs the series' commit"
note "kit of $BASE: base $(git -C "$TREE" log -1 --format='%h %s' "$base_commit"), series $(git -C "$TREE" log -1 --format='%h %s' "$series_commit")"
mapfile -t rows < <(kit_rows)
((${#rows[@]})) || die "the $BASE registry has no freelist row (hashmap full-update-*, htab-mem *-prealloc)"
note "rows (${#rows[@]}): $(printf '%s\n' "${rows[@]}" | awk '{ print $2 }' | xargs)"

declare -A kernel
for which in base series; do
	commit=${which}_commit
	note "the $which kernel ($(short_commit "${!commit}")) ..."
	kernel[$which]=$("$LAB_ROOT/scripts/kernel.sh" "${!commit}")
	for f in bzImage vmlinux; do
		[[ -f ${kernel[$which]}/$f ]] || die "${kernel[$which]}: no $f (scripts/kernel.sh ${!commit})"
	done
done
note "the series' bench ($(short_commit "$series_commit")) ..."
bench=$("$LAB_ROOT/scripts/bench-build.sh" "$series_commit")
[[ -x $bench/bench ]] || die "$bench: no bench (scripts/bench-build.sh $series_commit)"

out=$BASE_CACHE/kit
name=bpf-lab-kit-$BASE-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"
tmp=$(mktemp -d "$out/.new-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dir=$tmp/$name
mkdir -p "$dir/bench" "$dir/lib"

conf=(KIT_NAME "$name" KIT_BASE "$BASE" KIT_WARMUP "$SUITE_WARMUP" KIT_DURATION "$SUITE_DURATION"
	KIT_TOOLCHAIN "${KERNEL_TOOLCHAIN:-gcc}" KIT_BENCH_COMMIT "$(short_commit "$series_commit")")
for which in base series; do
	k=${kernel[$which]} commit=${which}_commit
	id=$(readelf -n "$k/vmlinux" | sed -n 's/^[[:space:]]*Build ID: //p')
	[[ $id =~ ^[0-9a-f]+$ ]] || die "$k/vmlinux: no build id (readelf -n)"
	version=$(bzimage_version "$k/bzImage") || die "$k/bzImage: not a bzImage (no setup header)"
	note "$which: $version, build id $id"
	mkdir -p "$dir/kernels/$which"
	cp "$k/bzImage" "$dir/kernels/$which/bzImage"
	cp "$k/.config" "$dir/kernels/$which/config"
	git -C "$TREE" log -1 --format='%H %s' "${!commit}" >"$dir/kernels/$which/commit"
	conf+=("KIT_${which^^}_BUILD_ID" "$id" "KIT_${which^^}_VERSION" "$version"
		"KIT_${which^^}_COMMIT" "$(short_commit "${!commit}")")
done
[[ ${conf[*]} != *" KIT_BASE_BUILD_ID $id "* ]] ||
	die "the base's and the series' kernels have one build id ($id): run-kit.sh could not tell them apart"
{
	echo "# The kit's facts, for run-kit.sh (written by the lab's scripts/kit.sh)"
	for ((i = 0; i < ${#conf[@]}; i += 2)); do
		printf '%s=%q\n' "${conf[i]}" "${conf[i + 1]}"
	done
} >"$dir/kit.conf"
printf '%s\n' "${rows[@]}" >"$dir/rows"
cp -r "$bench/." "$dir/bench/"
# the libraries bench links, but glibc's, for a machine that lacks them (run-kit.sh uses them then)
{ ldd "$bench/bench" 2>/dev/null || true; } |
	awk '$2 == "=>" && $3 ~ /^\// && $3 !~ /\/(libc|libm|libpthread|librt|libdl|libresolv|ld-linux[^\/]*)\.so/ { print $3 }' |
	while read -r lib; do cp -L "$lib" "$dir/lib/"; done
cp "$LAB_ROOT/scripts/guest/run-kit.sh" "$dir/run-kit.sh"
# the fields of its records that the lab gives (patches, lab commit), as readout.py records writes them
"$LAB_ROOT/scripts/readout.py" records fields --kind bench --base "$BASE" >"$dir/record.json"
grep -q '"lab_dirty": false' "$dir/record.json" ||
	note "warning: the lab has uncommitted changes: the kit's records will say so (lab_dirty)"
cat >"$dir/README" <<README
$name: the freelist rows of the lab's registry on this machine, base kernel against series.
Made by the lab's make kit (BASE=$BASE) at $(git -C "$LAB_ROOT" rev-parse --short=12 HEAD).

  kernels/base/bzImage     $(git -C "$TREE" log -1 --format='%h %s' "$base_commit")
  kernels/series/bzImage   $(git -C "$TREE" log -1 --format='%h %s' "$series_commit")
  bench/                   the series' selftests bench (both kernels run this one)
  run-kit.sh               the runner (./run-kit.sh --help)

Boot one kernel, run as root: ./run-kit.sh; boot the other, run it again. Each run writes a record,
records/$BASE/bench/<id>/, to copy into the lab's records/$BASE/bench/. run-kit.sh refuses any
other kernel. The kernels are the lab's VM kernels (tinyconfig + the bench fragment, kernels/*/config):
they mount their root over virtio 9p, with no block layer, disk driver or initramfs; they boot as the
lab's VM boots them (QEMU, the host's root over 9p), and on bare metal only with a config that has
the machine's disk and file-system drivers.
README

tar -C "$tmp" -czf "$tmp/$name.tar.gz" "$name"
mv "$tmp/$name.tar.gz" "$out/$name.tar.gz"
note "kit: $(du -h "$out/$name.tar.gz" | cut -f1), ${#rows[@]} rows, in $((SECONDS - start))s"
echo "$out/$name.tar.gz"
