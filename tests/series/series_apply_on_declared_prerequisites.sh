#!/bin/bash
# Each series applies as a maintainer applies it: on the pristine base plus exactly the series it
# declares it needs, and nothing else. A series' declaration is what its messages say: its
# base-commit: line names the base, and each of its prerequisite-patch-id: lines is the
# git patch-id --stable of a patch of patches/<base>/ (whole series only). On a scratch worktree
# of the base, git am of the declared series' patches (in the order they apply) and then of the
# series' own applies; so does git am of what b4 am -m makes of the series' mbox (make mbox) and of
# the declared series' mboxes, whose prerequisite-patch-id: lines must be those of patches/. And
# the series needs each series it declares: without the patches of one of them, it does not apply.
# Plant: 03-freelist declares no prerequisite (its cover letter without its prerequisite-patch-id:
# lines), though its race mode builds on 01-getpgid and 02-full-update.
# Plant command: sed -i '/^prerequisite-patch-id: /d' patches/7.3/03-freelist/0000-cover-letter.patch
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# declared_ids SERIES_DIR: the prerequisite-patch-id: lines of the series' messages, sorted.
declared_ids() {
	local files
	mapfile -t files < <(one_series_patches "$1")
	[[ ! -f $1/0000-cover-letter.patch ]] || files+=("$1/0000-cover-letter.patch")
	sed -n 's/^prerequisite-patch-id: //p' "${files[@]}" | sort -u
}

# patch_id PATCH: its git patch-id --stable, as git format-patch --base writes it.
patch_id() {
	git -C "$TREE" patch-id --stable <"$1" | cut -c1-40
}

# apply_on_base NAME PATCH...: git am of the patches in order on a scratch worktree of the base;
# prints the failure's line and returns 1 when one does not apply. The worktree is removed.
apply_on_base() {
	local wt=$scratch/$1 rc=0
	shift
	scratch_worktree "$wt" "$@"
	"$S/apply-series.sh" "$wt" "$@" 2>&1 || rc=1
	git -C "$TREE" worktree remove --force "$wt"
	return $rc
}

series_apply_on_declared_prerequisites() {
	local dirs d p id ids base declared name mboxes mbx prereq own before without names n=0
	declare -A series_of=() mbox_of=()
	need_patches
	mapfile -t dirs < <(series_dirs)
	base=$(git -C "$TREE" rev-parse "$BASE_TAG^{commit}")
	for d in "${dirs[@]}"; do
		while read -r p; do
			series_of[$(patch_id "$p")]=$d
		done < <(one_series_patches "$d")
	done
	mapfile -t mboxes < <("$S/mbox.sh" "$scratch/mbox")
	for p in "${mboxes[@]}"; do
		name=$(basename "$p" .mbox)
		mkdir -p "$scratch/b4/$name"
		(cd "$scratch/b4/$name" && b4 -q am -m "$p" -o "$scratch/b4/$name" </dev/null)
		mbx=("$scratch/b4/$name"/*.mbx)
		[[ -f ${mbx[0]} ]] || { echo "b4 am -m ${p##*/} wrote no .mbx"; return 1; }
		mbox_of[$name]=${mbx[0]}
		mbox_of[$name.ids]=$(sed -n 's/^prerequisite-patch-id: //p' "$p" | sort -u)
	done
	for d in "${dirs[@]}"; do
		name=$(series_name "$d")
		mapfile -t own < <(one_series_patches "$d")
		if [[ $BASE_COMMIT_TRAILER == 1 ]]; then
			grep -qhx "base-commit: $base" "$d"/0*.patch ||
				{ echo "$name: no 'base-commit: $base' ($BASE_TAG) line"; return 1; }
		fi
		# The series it declares, in the order they apply: each id a patch of another series, and
		# every patch of that series declared.
		ids=$(declared_ids "$d")
		declared=()
		for id in $ids; do
			p=${series_of[$id]:-}
			[[ -n $p ]] || { echo "$name: prerequisite-patch-id $id is no patch of $PATCHES_SHOWN/"; return 1; }
			[[ $p != "$d" ]] || { echo "$name: names its own patch $id as a prerequisite"; return 1; }
		done
		for p in "${dirs[@]}"; do
			[[ $p != "$d" ]] || continue
			n=0
			while read -r prereq; do
				grep -qx "$(patch_id "$prereq")" <<<"$ids" && n=$((n + 1))
			done < <(one_series_patches "$p")
			((n == 0)) && continue
			(($(one_series_patches "$p" | wc -l) == n)) ||
				{ echo "$name declares $n patch(es) of $(series_name "$p"), not all of it"; return 1; }
			declared+=("$p")
		done
		names=$(for p in "${declared[@]}"; do series_name "$p"; done | xargs)
		# git am of patches/: the declared series, then this one.
		before=()
		for p in "${declared[@]}"; do
			mapfile -t -O "${#before[@]}" before < <(one_series_patches "$p")
		done
		apply_on_base "am-$name" "${before[@]}" "${own[@]}" ||
			{ echo "$name does not apply with git am on the base with what it declares (${names:-none})"; return 1; }
		# b4 am of the mboxes: the same declaration, and the same result.
		[[ ${mbox_of[$name.ids]} == "$ids" ]] ||
			{ echo "$name.mbox declares '$(xargs <<<"${mbox_of[$name.ids]}")', $PATCHES_SHOWN/ '$(xargs <<<"$ids")'"; return 1; }
		mbx=()
		for p in "${declared[@]}"; do
			mbx+=("${mbox_of[$(series_name "$p")]}")
		done
		mbx+=("${mbox_of[$name]}")
		scratch_worktree "$scratch/b4-$name" "${before[@]}" "${own[@]}"
		if ! git -C "$scratch/b4-$name" am -q "${mbx[@]}" </dev/null; then
			git -C "$scratch/b4-$name" am --abort || true
			echo "$name does not apply from b4 am's mboxes on the base with what it declares (${names:-none})"
			return 1
		fi
		git -C "$TREE" worktree remove --force "$scratch/b4-$name"
		# It needs each series it declares.
		for p in "${declared[@]}"; do
			without=()
			for prereq in "${declared[@]}"; do
				[[ $prereq == "$p" ]] || mapfile -t -O "${#without[@]}" without < <(one_series_patches "$prereq")
			done
			if apply_on_base "without-$name" "${without[@]}" "${own[@]}" >/dev/null; then
				echo "$name declares $(series_name "$p") but applies without it"
				return 1
			fi
		done
		echo "$name: base-commit $BASE_TAG; declares ${names:-nothing}; git am and b4 am of its ${#own[@]} patch(es) on the base$([[ -z $names ]] || echo " and $names"): applied${names:+; without any one of them: does not apply}"
	done
}

run_test series_apply_on_declared_prerequisites "$@"
