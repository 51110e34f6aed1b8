#!/bin/bash
# The series' quality gates, patch by patch, series after series in the order they apply (a base of
# several series, patches/<base>/NN-name/: each on top of the ones before it, as make tree applies
# them). For each patch of patches/<base>/:
#   checkpatch  scripts/checkpatch.pl --strict: 0 errors, 0 warnings, 0 checks, except the
#               message types allowed for that patch in config/checkpatch-allowlist
#   builds      the kernel and bench build with the series applied up to this patch
#   w1          make W=1 on the C files the patch touches adds no warning over its parent
#   sparse      make C=2 (sparse) on those files adds no warning over its parent
# Prints a "== <series>" line before each series of a base of several, one "ok|FAIL <patch>: <gate>"
# line per gate (<patch>: NN-name/NNNN-*.patch in a series directory) and exits non-zero if any failed.
#   scripts/gates.sh [-g GATE,...] [PATCH_NUMBER|SERIES...]   (default: every gate, every patch)
#   -g  the gates to run: checkpatch, builds, w1, sparse (checkpatch alone needs no kernel build)
#   PATCH_NUMBER: the patch's place in the order the lab applies the base's patches, counted on
#   across series (7.3: 1 is 01-getpgid's patch, 6 is 03-freelist/0001); SERIES: every patch of
#   that series (NN-name)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
own_group "$@"
check_knobs

S=$LAB_ROOT/scripts
checkpatch=$BASE_DIR/scripts/checkpatch.pl
obj=$(kernel_obj bench)	# LLVM=1: the LLVM kernel's, built with its toolchain
sparse=${LAB_SPARSE:-sparse}
failed=0

gate() {
	local patch=$1 name=$2 log
	shift 2
	log=$(mktemp)
	if "$@" >"$log" 2>&1; then
		echo "ok   ${patch#"$PATCHES"/}: $name"
	else
		echo "FAIL ${patch#"$PATCHES"/}: $name"
		tail -n 20 "$log" | sed 's/^/     | /'
		failed=$((failed + 1))
	fi
	rm -f "$log"
}

run_checkpatch() {
	local patch=$1 ignore out
	ignore=$(awk -v p="$(basename "$patch")" '$1 !~ /^#/ && p ~ $1 { printf "%s,", $2 }' \
		"$LAB_ROOT/config/checkpatch-allowlist")
	out=$(perl "$checkpatch" --strict --no-tree --show-types ${ignore:+--ignore "${ignore%,}"} "$patch") || true
	echo "$out"
	grep -q "total: 0 errors, 0 warnings, 0 checks" <<<"$out"
}

builds() {
	"$S/kernel.sh" "$1" && "$S/bench-build.sh" "$1"
}

# The kernel C files a commit touches (tools/ has no W=1 or sparse build).
touched_c_files() {
	git -C "$TREE" diff --name-only "$1^" "$1" -- '*.c' | grep -v '^tools/' || true
}

# Warnings of one extra-check build (W=1 or C=2) of some kernel C files at a commit, with line
# numbers dropped so that moved code compares equal. Fails, with make's last lines, when the
# checker is missing or make fails: an empty list must mean "no warning", never "not checked".
object_warnings() {
	local commit=$1 check=$2 files=$3 objs log rc=0
	if [[ $check == C=* ]] && ! command -v "$sparse" >/dev/null; then
		echo "error: $sparse not found: the sparse gate cannot run (run: make deps)"
		return 1
	fi
	lock_build_src
	checkout_commit "$BUILD_SRC" "$commit"
	objs=$(sed 's/\.c$/.o/' <<<"$files")
	log=$(mktemp)
	# shellcheck disable=SC2086 # one word per object
	lab_make -C "$BUILD_SRC" O="$obj" ARCH=x86_64 -j"$JOBS" "${KERNEL_MAKE_ARGS[@]}" "$check" CHECK="$sparse" $objs \
		>"$log" 2>&1 || rc=$?
	if ((rc)); then
		echo "error: make $check of $(xargs <<<"$objs") at $(git -C "$TREE" log -1 --format=%h "$commit") failed (exit $rc):"
		tail -n 10 "$log"
		rm -f "$log"
		return 1
	fi
	{ grep -E 'warning:|error:' "$log" || true; } | sed -E 's/:[0-9]+:[0-9]+:/:/; s/:[0-9]+:/:/' | sort -u
	rm -f "$log"
}

# The same files built at the parent and at the commit: no warning may be new.
no_new_warnings() {
	local commit=$1 check=$2 files before after
	files=$(touched_c_files "$commit")
	[[ -n $files ]] || { echo "no kernel C file touched"; return 0; }
	# Explicit returns: gate() runs this in an `if`, where errexit does not apply.
	before=$(object_warnings "$commit^" "$check" "$files") || { echo "$before"; return 1; }
	after=$(object_warnings "$commit" "$check" "$files") || { echo "$after"; return 1; }
	echo "$after"
	! comm -13 <(echo "$before") <(echo "$after") | grep .
}

# Sourced (by check.sh's tests): the functions only.
[[ ${BASH_SOURCE[0]} == "$0" ]] || return 0

usage="usage: scripts/gates.sh [-g checkpatch,builds,w1,sparse] [PATCH_NUMBER|SERIES...]"
gates=checkpatch,builds,w1,sparse
while getopts :g:h opt; do
	case $opt in
	g) gates=$OPTARG ;;
	h) echo "$usage"; exit 0 ;;
	:) die "-$OPTARG needs a value ($usage)" ;;
	*) die "-$OPTARG: no such option ($usage)" ;;
	esac
done
shift $((OPTIND - 1))
IFS=, read -ra wanted <<<"$gates"
for g in "${wanted[@]}"; do
	[[ $g =~ ^(checkpatch|builds|w1|sparse)$ ]] || die "-g $g: no such gate (checkpatch, builds, w1, sparse)"
done
wants() {
	[[ " ${wanted[*]} " == *" $1 "* ]]
}
mapfile -t dirs < <(series_dirs "$PATCHES")
names=$(for d in "${dirs[@]}"; do series_name "$d"; done)
for n in "$@"; do
	positive "$n" || grep -qxF -- "$n" <<<"$names" ||
		die "'$n': expected a patch number or a series ($(xargs <<<"$names")) ($usage)"
done

# tree.sh's own message, once, when it fails.
"$S/tree.sh" >/dev/null
mapfile -t patches < <(series_patches "$PATCHES")
mapfile -t commits < <(git -C "$TREE" rev-list --reverse "$BASE_TAG..HEAD")
((${#patches[@]} == ${#commits[@]})) ||
	die "the tree has ${#commits[@]} commits but $PATCHES_SHOWN/ has ${#patches[@]} patches: run make series or make tree"

selected=("$@")
i=0
for d in "${dirs[@]}"; do
	name=$(series_name "$d")
	mapfile -t series < <(one_series_patches "$d")
	((${#dirs[@]} == 1)) || echo "== $name: ${#series[@]} patch(es)$( ((i == 0)) || echo ", on top of the series before it")"
	for p in "${series[@]}"; do
		n=$((i + 1)) c=${commits[$i]}
		i=$n
		if ((${#selected[@]})) && [[ " ${selected[*]} " != *" $n "* && " ${selected[*]} " != *" $name "* ]]; then
			continue
		fi
		! wants checkpatch || gate "$p" checkpatch run_checkpatch "$p"
		! wants builds || gate "$p" "kernel and bench build" builds "$c"
		! wants w1 || gate "$p" "no new W=1 warnings" no_new_warnings "$c" W=1
		! wants sparse || gate "$p" "no new sparse warnings" no_new_warnings "$c" C=2
	done
done
exit $((failed > 0))
