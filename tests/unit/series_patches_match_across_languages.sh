#!/bin/bash
# Which files of patches/<base>/ are the series' patches, and in what order, is written in both
# languages: scripts/lib/patches.sh's series_patches (series_dirs, one_series_patches: what
# tree.sh applies, series.sh writes, mbox.sh and gates.sh check) and scripts/readout/patch_keys.py's
# series_patches (what records.py keeps in a record's meta.json and matrix.py compares to call a
# row stale). Python runs no lab shell, and the shell asks one series at a time in loops, so each
# keeps its own; this holds them equal, path for path: on every base's patches/, and on a scratch
# base of each layout (flat; series directories NN-name/) with files that are not patches beside
# them (cover letters, cover-letter.txt, a patch's .orig, a directory that is not NN-name/, a patch
# beside series directories, a series directory without patches).
# Plant: Python's series_patches leaving out the base's last patch.
# Plant command: sed -i 's/for p in one_series_patches(d)\]$/&[:-1]/' scripts/readout/patch_keys.py
# Plant: the shell's series_dirs taking every directory as a series, not only NN-name/.
# Plant command: sed -i 's|"$dir"/\[0-9\]\[0-9\]-\*/|"$dir"/*/|' scripts/lib/patches.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# python_series_patches DIR: patch_keys.series_patches(DIR), one path a line.
python_series_patches() {
	(cd "$S" && python3 -c 'import sys
from readout import patch_keys
for p in patch_keys.series_patches(sys.argv[1]):
    print(p)' "$1")
}

# same_patches NAME DIR: the shell and Python list the same patches of DIR, in the same order.
same_patches() {
	local shell python
	shell=$(series_patches "$2")
	python=$(python_series_patches "$2")
	if [[ $shell != "$python" ]]; then
		echo "$1: the shell's series_patches and Python's differ (- shell, + Python):"
		diff -u <(echo "$shell") <(echo "$python") | tail -n +3 | sed "s|$2/||"
		return 1
	fi
	# each patch as NN/NNNN (a series directory's) or NNNN
	echo "$1: $(grep -c . <<<"$shell") patches, the same in both: $(sed -E "s|^$2/||; s|^([0-9]{2})-[^/]*/|\1/|; s|-[^/]*$||" <<<"$shell" | xargs)"
}

# touch_all DIR FILE...: empty files FILE... under DIR, with their directories.
touch_all() {
	local dir=$1 f
	shift
	for f; do
		mkdir -p "$dir/$(dirname "$f")"
		: >"$dir/$f"
	done
}

series_patches_match_across_languages() {
	local base bad=0 flat=$scratch/flat dirs=$scratch/dirs
	for base in $(lab_bases); do
		[[ -d $LAB_ROOT/patches/$base ]] || continue
		same_patches "patches/$base" "$LAB_ROOT/patches/$base" || bad=1
	done
	touch_all "$flat" 0000-cover-letter.patch 0001-a.patch 0002-b.patch 0010-c.patch cover-letter.txt \
		0003-b.patch.orig notes.patch
	touch_all "$dirs" 01-x/0000-cover-letter.patch 01-x/0001-a.patch 01-x/0002-b.patch 01-x/cover-letter.txt \
		02-y/0001-c.patch 10-z/0001-d.patch 10-z/0002-e.patch 04-empty/cover-letter.txt old/0001-f.patch \
		1-bad/0001-g.patch 0001-stray.patch
	: >"$dirs/03-a-file"
	same_patches "a flat series" "$flat" || bad=1
	same_patches "series directories" "$dirs" || bad=1
	((bad == 0))
}

run_test series_patches_match_across_languages "$@"
