#!/bin/bash
# lab/variants/index names every lab variant once, with a parent it can be made from: each line
# is "NAME PARENT BASES..."; PARENT is base, series, or a variant listed above it; BASES are bases
# of the lab (config/<base>/); every lab/variants/*.patch and retired/*.patch has its line (a name
# in one folder only), and a line without a patch is one make-pace.sh generates (the pace and mimic
# variants, never committed). No tree needed: series/variants_apply applies them, base by base.
# Plant: a variant whose patch is not in the index.
# Plant command: cp lab/variants/freelist-no-skip.patch lab/variants/freelist-no-skip-again.patch
# Plant: a retired design's patch also left in lab/variants/.
# Plant command: cp lab/variants/retired/freelist-v2.patch lab/variants/freelist-v2.patch
# Plant: a variant whose parent is not in the index (a parent's name mistyped).
# Plant command: sed -i 's/^\(freelist-v4-noage-7.3 *\)freelist-v4-7.3 /\1freelist-v4.3 /' lab/variants/index
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

variants_index_is_whole() {
	local name parent bases b f bad=0 n=0 tmp=$scratch/parent.c
	declare -A bases_of=()
	echo 'int x;' >"$tmp"
	while read -r name parent bases; do
		n=$((n + 1))
		[[ -n $bases ]] || { echo "$name: no bases (NAME PARENT BASES...)"; bad=1; continue; }
		[[ -z ${bases_of[$name]:-} ]] || { echo "$name: listed twice"; bad=1; }
		for b in $bases; do
			[[ -f $LAB_ROOT/config/$b/base.conf ]] || { echo "$name: '$b' is not a base of the lab"; bad=1; }
		done
		if [[ $parent != base && $parent != series && -z ${bases_of[$parent]:-} ]]; then
			echo "$name: its parent '$parent' is not a variant listed above it"
			bad=1
		fi
		bases_of[$name]=$bases
		if ! variant_file "$name" >/dev/null; then
			# a generated variant: make-pace.sh must know its name (it refuses others first)
			"$VARIANTS_DIR/make-pace.sh" "$name" "$tmp" >/dev/null 2>"$scratch/err" || true
			if grep -q 'not a variant it makes' "$scratch/err"; then
				echo "$name: no lab/variants/$name.patch or retired/$name.patch, and make-pace.sh does not generate it"
				bad=1
			fi
		fi
	done < <(variant_index)
	for f in "$VARIANTS_DIR"/*.patch "$VARIANTS_DIR"/retired/*.patch; do
		name=$(basename "$f" .patch)
		[[ -n ${bases_of[$name]:-} ]] || { echo "${f#"$LAB_ROOT"/}: not in lab/variants/index"; bad=1; }
		[[ ! -f $VARIANTS_DIR/$name.patch || ! -f $VARIANTS_DIR/retired/$name.patch ]] ||
			{ echo "$name: a patch in lab/variants/ and in retired/"; bad=1; }
	done
	echo "$n variants, $(find "$VARIANTS_DIR" -name '*.patch' | wc -l) patches"
	((n > 0 && bad == 0))
}

run_test variants_index_is_whole "$@"
