#!/bin/bash
# make kit packs, into one tarball under the cache's <base>/kit/ named on its last line, the base's
# and the series' kernels (bzImage, config, commit), the series' bench directory, run-kit.sh, the
# kit's facts (each kernel's build id and version string, told apart), the registry's freelist rows
# (hashmap full-update-*, htab-mem *-prealloc) and the lab's fields of a record; run on a fake lab
# whose kernels and bench are fakes (tests/lib.sh fake_kit_lab), so nothing is built.
# Plant: kit.sh packing the base's kernel as the series' too.
# Plant command: sed -i 's|cp "$k/bzImage" "$dir/kernels/$which/bzImage"|cp "${kernel[base]}/bzImage" "$dir/kernels/$which/bzImage"|' scripts/kit.sh
# Plant: kit.sh leaving the race rows out.
# Plant command: sed -i 's|\$2 ~ /^full-update-/|$2 ~ /^full-update-(full\|existing)/|' scripts/kit.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

kit_packs_both_kernels_bench_and_runner() {
	local lab=$scratch/lab kit out want have m rows
	out=$(fake_kit_lab "$lab" aaaa0001 bbbb0002 && LAB_CACHE=$lab/cache LAB_TREE=$lab/tree make -s -C "$lab" kit 2>&1)
	echo "$out"
	tarball=$(tail -n1 <<<"$out")
	[[ $tarball == "$lab/cache/7.3/kit/bpf-lab-kit-7.3-"*.tar.gz && -f $tarball ]] ||
		{ echo "the last line names no tarball in the cache's 7.3/kit/"; return 1; }
	kit=$(basename "$tarball" .tar.gz)
	have=$(tar -tzf "$tarball" | grep -v '/$' | sed "s|^$kit/||" | sort)
	want=$(printf '%s\n' README bench/bench kernels/base/bzImage kernels/base/commit kernels/base/config \
		kernels/series/bzImage kernels/series/commit kernels/series/config kit.conf record.json rows run-kit.sh | sort)
	for m in $want; do
		grep -qxF "$m" <<<"$have" || { echo "the kit has no $m; it has: $(xargs <<<"$have")"; return 1; }
	done
	mkdir -p "$scratch/unpacked"
	tar -C "$scratch/unpacked" -xzf "$tarball"
	kit=$scratch/unpacked/$kit
	if ! cmp "$kit/kernels/base/bzImage" "$lab/kernels/base/bzImage" || ! cmp "$kit/kernels/series/bzImage" "$lab/kernels/series/bzImage"; then
		echo "the kit's bzImages are not the base's and the series'"
		return 1
	fi
	if ! cmp "$kit/run-kit.sh" "$LAB_ROOT/scripts/guest/run-kit.sh" || [[ ! -x $kit/run-kit.sh || ! -x $kit/bench/bench ]]; then
		echo "run-kit.sh or bench: not the lab's, or not executable"
		return 1
	fi
	cat "$kit/kit.conf"
	if ! grep -qx 'KIT_BASE_BUILD_ID=aaaa0001' "$kit/kit.conf" || ! grep -qx 'KIT_SERIES_BUILD_ID=bbbb0002' "$kit/kit.conf"; then
		echo "kit.conf: not the kernels' build ids"
		return 1
	fi
	grep -q '^KIT_SERIES_VERSION=.*lab@series' "$kit/kit.conf" || { echo "kit.conf: not the series' version string"; return 1; }
	rows=$(awk '{ print $2 }' "$kit/rows" | xargs)
	echo "rows: $rows"
	[[ $rows == "full-update-race full-update-race-closed full-update-full full-update-existing full-update-full-p2 htab-mem-churn-prealloc htab-mem-batch-prealloc htab-mem-overwrite-prealloc" ]] ||
		{ echo "not the registry's freelist rows"; return 1; }
	[[ $(sed -n 's/^ "lab_commit": "\(.*\)",$/\1/p' "$kit/record.json") == $(git -C "$lab" rev-parse HEAD) ]] ||
		{ echo "record.json: not the lab's commit"; return 1; }
	# a kit whose two kernels cannot be told apart is refused
	cp "$lab/kernels/base/vmlinux" "$lab/kernels/series/vmlinux"
	LAB_CACHE=$lab/cache LAB_TREE=$lab/tree expect_fail "one build id \(aaaa0001\)" make -s -C "$lab" kit
	[[ $(find "$lab/cache/7.3/kit" -name '*.tar.gz' | wc -l) == 1 && -z $(find "$lab/cache/7.3/kit" -name '.new-*') ]] ||
		{ echo "a refused kit left a tarball or its scratch directory"; return 1; }
}

run_test kit_packs_both_kernels_bench_and_runner "$@"
