#!/bin/bash
# The series as mboxes (make mbox: one per series of patches/<base>/) apply with git am --empty=drop,
# in order, and give the tree's commits. A series with a cover-letter.txt has its cover letter first,
# with that subject; a series of one patch without one is that patch alone.
# Plant: the old awk mbox.sh (git show e9ff5a3:scripts/mbox.sh), which cut commit messages short.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

mbox_applies_with_git_am() {
	local mboxes dirs i n subject want prefix
	need_patches
	mapfile -t mboxes < <("$S/mbox.sh" "$scratch/mbox")
	mapfile -t dirs < <(series_dirs "$PATCHES")
	((${#mboxes[@]} == ${#dirs[@]})) || { echo "${#mboxes[@]} mbox(es) for ${#dirs[@]} series"; return 1; }
	for i in "${!dirs[@]}"; do
		n=$(one_series_patches "${dirs[$i]}" | wc -l)
		subject=$(sed -n 's/^Subject: //p' "${mboxes[$i]}" | head -n1)
		# the series' prefix, its version included (series.conf's SERIES_VERSIONS)
		prefix=$(series_format_opts "${dirs[$i]}" | sed -n 's/^--subject-prefix=//p')
		if [[ -f ${dirs[$i]}/cover-letter.txt ]]; then
			# The cover letter comes first, with the subject of its cover-letter.txt.
			want="[$prefix 0/$n] $(head -n1 "${dirs[$i]}/cover-letter.txt")"
			subject=${subject/#\[$prefix 00/[$prefix 0}	# git numbers 00/10 from 10 patches on
		else
			want="[$prefix] $(git mailinfo /dev/null /dev/null <"$(one_series_patches "${dirs[$i]}")" | sed -n 's/^Subject: //p')"
		fi
		[[ $subject == "$want" ]] || { echo "${mboxes[$i]##*/}: first subject '$subject', expected '$want'"; return 1; }
		echo "${mboxes[$i]##*/}: $subject"
	done
	am_matches_series mbox-tree --empty=drop "${mboxes[@]}"
}

run_test mbox_applies_with_git_am "$@"
