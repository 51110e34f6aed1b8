#!/bin/bash
# Materialize the kernel git tree: one commit for the pristine base, then patches/*.patch with git am.
# The tree is reused while patches/ is unchanged, and rebuilt from the base commit when it changed.
#   FORCE=1  rebuild even if the tree has commits that are not in patches/ (they are lost).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$LAB_ROOT/scripts/base.sh"

stamp_file=$TREE/.git/lab-stamp	# "<hash of patches/> <HEAD after applying them>"
mapfile -t patches < <(series_patches)
patches_hash=$(series_hash)

make_base_commit() {
	local kver
	kver=$(make -s -C "$BASE_DIR" kernelversion)
	rm -rf "$TREE"
	mkdir -p "$TREE"
	git -C "$TREE" init -q -b main
	cp -a "$BASE_DIR/." "$TREE/"
	rm -f "$TREE/.extracted"
	git -C "$TREE" add -A -f .
	# Fixed dates: the base commit id then depends only on the content and the identity.
	GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z' \
		git -C "$TREE" commit -q -m "Linux $kver (Debian $BASE_PACKAGE $(cat "$BASE_DIR/.extracted"))"
	git -C "$TREE" tag -f "$BASE_TAG" >/dev/null
}

if [[ -f $stamp_file ]]; then
	read -r old_hash old_head <"$stamp_file"
	if [[ $old_hash == "$patches_hash" ]]; then
		note "tree $TREE is up to date with patches/"
		exit 0
	fi
	head=$(git -C "$TREE" rev-parse HEAD)
	if [[ $head != "$old_head" && ${FORCE:-0} != 1 ]]; then
		die "patches/ changed, and the tree has commits not in patches/; run 'make series' to keep them or FORCE=1 to drop them"
	fi
	git -C "$TREE" am --abort >/dev/null 2>&1 || true
	git -C "$TREE" checkout -q -f -B main "$BASE_TAG"
	git -C "$TREE" clean -q -fdx
else
	step "creating the base commit in $TREE" make_base_commit
fi

step "applying ${#patches[@]} patch(es) with git am" "$LAB_ROOT/scripts/apply-series.sh" "$TREE" "${patches[@]}"
echo "$patches_hash $(git -C "$TREE" rev-parse HEAD)" >"$stamp_file"
git -C "$TREE" log --oneline -n $((${#patches[@]} + 1)) >&2
