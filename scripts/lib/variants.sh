# The lab's measurement-only variants (lab/variants/): each names its parent in
# lab/variants/index ("NAME PARENT BASES...", PARENT: base, series or another variant), and its
# patch, lab/variants/NAME.patch (retired/NAME.patch for a retired design: v2, v3, v3r3 and the
# bitmap's v1), is a delta against that parent. A variant without a patch is
# generated from its parent's percpu_freelist.c by lab/variants/make-pace.sh. A name is looked up
# as NAME-<base> first, then NAME (freelist-v3 on 7.3 is freelist-v3-7.3). Part of scripts/lib.sh.
# shellcheck shell=bash

VARIANTS_DIR=$LAB_ROOT/lab/variants

# variant_index: the index's entries, "NAME PARENT BASES..." one a line.
variant_index() {
	list_entries "$VARIANTS_DIR/index"
}

# variant_name NAME [VERSION]: the index's name of NAME for VERSION (default $BASE): NAME-VERSION,
# else NAME, when VERSION is among its bases; a one-line error otherwise. A path to a patch of
# lab/variants/ names its variant.
variant_name() {
	local want=${1##*/} version=${2:-$BASE} name parent bases
	want=${want%.patch}
	for name in "$want-$version" "$want"; do
		read -r name parent bases < <(variant_index | awk -v n="$name" '$1 == n' | head -n1) || continue
		[[ " $bases " == *" $version "* ]] || die "variant '$want' is for ${bases// /, } (lab/variants/index), not $version"
		echo "$name"
		return 0
	done
	die "unknown variant '$want' for $version: base, series, or one of: $(variant_index | awk -v v="$version" '{ for (i = 3; i <= NF; i++) if ($i == v) printf "%s ", $1 }')(lab/variants/index)"
}

# variant_steps NAME [VERSION]: the way from the root to NAME, one name a line: the root (base or
# series) first, then each variant from the one nearest the root to NAME itself.
variant_steps() {
	local name parent steps=() n=0
	name=$(variant_name "$@") || return 1
	while [[ $name != base && $name != series ]]; do
		steps=("$name" "${steps[@]}")
		parent=$(variant_index | awk -v n="$name" '$1 == n { print $2; exit }')
		[[ -n $parent ]] || die "variant '${steps[-1]}': its parent '$name' is not in lab/variants/index"
		name=$parent
		((++n < 50)) || die "variant '$1': a loop of parents in lab/variants/index"
	done
	printf '%s\n' "$name" "${steps[@]}"
}

# variant_file NAME: the committed patch of variant NAME, lab/variants/NAME.patch or, for a
# retired design, lab/variants/retired/NAME.patch; status 1 if it has none (a generated variant).
variant_file() {
	local f
	for f in "$VARIANTS_DIR/$1.patch" "$VARIANTS_DIR/retired/$1.patch"; do
		[[ ! -f $f ]] || { echo "$f"; return 0; }
	done
	return 1
}

# variant_patch NAME DIR: the patch that makes variant NAME of its parent, whose
# percpu_freelist.c is in DIR: its variant_file, or the one make-pace.sh generates (kept in
# $BASE_CACHE/variants/, named after a hash of the parent's file).
variant_patch() {
	local name=$1 dir=$2 key out
	! variant_file "$name" || return 0
	key=$(cat "$VARIANTS_DIR/make-pace.sh" "$dir/percpu_freelist.c" | sha1sum | cut -c1-12)
	out=$BASE_CACHE/variants/$key/$name.patch
	if [[ ! -f $out ]]; then
		mkdir -p "${out%/*}"
		"$VARIANTS_DIR/make-pace.sh" "$name" "$dir/percpu_freelist.c" >"$out.tmp" || {
			rm -f "$out.tmp"
			die "variant '$name': no lab/variants/$name.patch, and make-pace.sh does not make it"
		}
		mv "$out.tmp" "$out"
	fi
	echo "$out"
}

# variant_commit NAME [SERIES_REV]: the tree's commit of variant NAME: its root (the base, or the
# series at SERIES_REV, default HEAD) with the patch of each variant on the way applied in turn
# (patched_commit: tags lab-patched/<name>-<hash>). It runs as a stage's command (stage_out's
# `$(...) || return`, a condition, where set -e does not reach): each step that can fail returns.
variant_commit() {
	local series=${2:-HEAD} steps step commit tmp patch
	steps=$(variant_steps "$1") || return
	mapfile -t steps <<<"$steps"
	((${#steps[@]} > 1)) || return 1
	if [[ ${steps[0]} == base ]]; then
		commit=$(tree_commit "$BASE_TAG") || return
	else
		commit=$(tree_commit "$series") || return
	fi
	for step in "${steps[@]:1}"; do
		tmp=''
		if ! variant_file "$step" >/dev/null; then
			tmp=$(mktemp -d) || return
			git -C "$TREE" show "$commit:kernel/bpf/percpu_freelist.c" >"$tmp/percpu_freelist.c" || return
		fi
		patch=$(variant_patch "$step" "$tmp") || return
		[[ -z $tmp ]] || rm -rf "$tmp"
		commit=$(patched_commit "$commit" "$patch") || die "variant '$step' does not apply to its parent ($1)"
	done
	echo "$commit"
}
