#!/bin/bash
# What README, EVIDENCE.md and Documentation/ (lab.md, regress.md, findings/) say about the lab is true: each
# statement checked here against the scripts, the config or the records that produced its number;
# and no page outside Documentation/archive/, no header comment (docstring) of a script or module
# of scripts/ and not lab/variants/README.md names a path the lab no longer has (a patch named by
# its number, patches/6.1/0012, is its NNNN-*.patch; a glob must match a file), nor do the last two
# call an older version of the freelist patch the series (the series' version: the newest
# "Changes in vN" of the cover letters of patches/).
# Plant: a default changed in config/vm.conf and not in the Makefile's list of the knobs.
# Plant command: sed -i 's/^BENCH_TIMEOUT=1200/BENCH_TIMEOUT=1500/' config/vm.conf
# Plant: a base gets its own bench.config, and lab.md still names the others only (lab.md:19 said
# "neither does now" when two did).
# Plant command: echo CONFIG_BPF=y >config/6.1/bench.config
# Plant: a page links a results file that moved (the pages named Documentation/results/ before it
# became records/ and archive/).
# Plant command: sed -i 's|(Documentation/lab.md) |(Documentation/results/lab.md) |' README.md
# Plant: lab/variants/README.md names 7.3's freelist patch where it was before the series moved
# into directories (patches/7.3/0008, which it named until 2026-12-07).
# Plant command: sed -i 's|the file of 7.3.s freelist patch at v3 (then patch 0008 of a flat series)|the file of patches/7.3/0008|' lab/variants/README.md
# Plant: a docstring names a runner of scripts/guest/ by its name before it moved.
# Plant command: sed -i 's|(scripts/guest/scaling-rounds.sh)|(scripts/guest/scaling.sh)|' scripts/readout/benchout.py
# Plant: lab/variants/README.md calls v3 the series, as it did until v6.
# Plant command: sed -i "s|the series' percpu_freelist patch (v6:|the series' percpu_freelist patch (v3:|" lab/variants/README.md
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# pages: the pages that describe the lab today (not the frozen archive)
pages() {
	echo "$LAB_ROOT/README.md"
	echo "$LAB_ROOT/EVIDENCE.md"
	find "$LAB_ROOT/Documentation" -path "$LAB_ROOT/Documentation/archive" -prune -o -name '*.md' -print | sort
}

# header FILE: a script's header comment (its --help where it has no usage of its own), or a
# Python module's leading comments and docstring
header() {
	case $1 in
	*.py) awk -v q='"""' 'NR == 1 && /^#!/ { next }
		!doc && /^#/ { print; next }
		!doc && index($0, q) == 1 { doc = 1; $0 = substr($0, 4) }
		doc { i = index($0, q); if (i) { print substr($0, 1, i - 1); exit } print; next }
		{ exit }' "$1" ;;
	*) awk 'NR == 1 && /^#!/ { next } /^#/ { print; next } { exit }' "$1" ;;
	esac
}

# texts: the lab's prose beside its code, "LABEL<TAB>FILE" a line (FILE holds the text): the
# variants' README and the header of every script and module of scripts/
texts() {
	local f out
	printf '%s\t%s\n' lab/variants/README.md "$LAB_ROOT/lab/variants/README.md"
	mkdir -p "$scratch/headers"
	while read -r f; do
		out=$scratch/headers/${f//\//%}
		header "$LAB_ROOT/$f" >"$out"
		printf '%s\t%s\n' "$f (header)" "$out"
	done < <(cd "$LAB_ROOT" && find scripts \( -name '*.sh' -o -name '*.py' \) -type f | sort)
}

# lab_path_exists P: P, a path of the lab, exists; a test's name (tier/name) counts as its tests/
# file, a patch's number (patches/<base>/[NN-name/]NNNN) as its NNNN-*.patch, a glob as its matches
lab_path_exists() {
	local p=$1
	[[ -e $LAB_ROOT/$p || -e $LAB_ROOT/tests/$p.sh ]] && return 0
	[[ $p =~ ^patches/.*/[0-9]{4}$ ]] && compgen -G "$LAB_ROOT/$p-*.patch" >/dev/null && return 0
	[[ $p == *\** ]] && compgen -G "$LAB_ROOT/$p" >/dev/null && return 0
	return 1
}

# not_the_labs P: P is a placeholder, or a path of a kernel tree rather than of the lab
not_the_labs() {
	[[ $1 == *[\<\{\[]* || $1 =~ (NAME|ROW|BASE) ]] && return 0
	[[ $1 =~ ^(tools/(testing/selftests|testing/radix-tree|memory-model|include|lib|bpf)|scripts/(kconfig|checkpatch\.pl|get_maintainer\.pl))(/|$) ]]
}

# missing_paths FILE [bare]: the paths of the lab FILE names (`...` or a link; with bare, also any
# word that starts with a folder of the lab) that do not exist
missing_paths() {
	local page=$1 bare=${2:-} p
	{
		# shellcheck disable=SC2016 # backquotes of Markdown, not a command
		grep -o '`[^` ]*`' "$page" | tr -d '`' || true	# (a page may name none)
		grep -o '](\([^)]*\))' "$page" | sed 's/^](//; s/)$//; s/#.*//' | sed "s|^|@|" || true
		if [[ -n $bare ]]; then
			# shellcheck disable=SC2016 # a regex
			grep -oE '(^|[^A-Za-z0-9_./$-])(config|scripts|tests|lab|tools|records|Documentation|patches)/[^][:space:]`"'"'"',;()]*' "$page" |
				sed -E 's/^[^a-zA-Z]//; s/[.:]+$//' || true
		fi
	} | sort -u | while read -r p; do
		if [[ $p == @* ]]; then
			p=${p#@}
			[[ -n $p && $p != http* ]] || continue
			[[ -e $(dirname "$page")/$p ]] || echo "$p"
			continue
		fi
		p=${p%%:*}
		[[ $p =~ ^(config|scripts|tests|lab|tools|records|Documentation|patches)/ ]] || continue
		not_the_labs "$p" && continue
		lab_path_exists "$p" || echo "$p"
	done
	return 0
}

# stale_versions FILE VERSION: the lines of FILE that call another version than VERSION (vN) the
# series' patch or design, and do not say it is past (until, before, replaced, as posted, ...)
stale_versions() {
	local line v
	{ grep -E "the series'? ([a-z_]+ )?(patch|design)[^.|]*\bv[0-9]+\b|\bv[0-9]+\b[^.|]*the (file|design) of the series'? patch" "$1" || true; } |
		while IFS= read -r line; do
			grep -qE '\b(until|before|replaced|as posted|as first|retired|earlier|older)\b' <<<"$line" && continue
			while read -r v; do
				[[ $v == "$2" ]] || { echo "${line:0:160}"; break; }
			done < <(grep -oE '\bv[0-9]+\b' <<<"$line" | sort -u)
		done
}

docs_match_the_lab() {
	local readme=$LAB_ROOT/README.md lab=$LAB_ROOT/Documentation/lab.md spread others page missing dir bases cache
	local version n label file stale
	spread=$("$S/readout.py" spread "$LAB_ROOT"/records/*/compare/*/trials.csv | sed -n 's/^icount: .*median \([0-9.]*%\), 90th percentile \([0-9.]*%\), max \([0-9.]*%\)$/\1 \2 \3/p')
	echo "icount spread (median, 90th percentile, max): $spread"
	read -r median p90 max <<<"$spread"
	others=$("$S/readout.py" spread -x 'rhash-*' "$LAB_ROOT"/records/*/compare/*/trials.csv | sed -n 's/^icount: .*max \([0-9.]*%\)$/\1/p')
	# the icount spread is lab.md's (its QEMU facts); the knobs are the scripts' --help's
	tr '\n' ' ' <"$lab" | grep -q "$median at the median, $p90 at the 90th percentile and $max" ||
		{ echo "$lab does not give the icount spread as $spread"; return 1; }
	tr '\n' ' ' <"$lab" | grep -q "the other rows up *to $others" ||
		{ echo "$lab does not give the spread of the rows other than rhash-* as $others"; return 1; }
	# the VM's defaults: vm.sh -h prints them from config/vm.conf; the Makefile's list of the knobs
	# restates them
	grep -q "^#.*TIMEOUT=<seconds: $VM_TIMEOUT for vm, $BENCH_TIMEOUT for bench>" "$LAB_ROOT/Makefile" ||
		{ echo "Makefile: TIMEOUT defaults are config/vm.conf's $VM_TIMEOUT and $BENCH_TIMEOUT"; return 1; }
	{ grep -q "^#.*CPUS=$VM_CPUS .*MEM=$VM_MEM " "$LAB_ROOT/Makefile" && grep -q "^#.*SILENCE=$VM_SILENCE " "$LAB_ROOT/Makefile"; } ||
		{ echo "Makefile: CPUS, MEM, SILENCE defaults are config/vm.conf's $VM_CPUS, $VM_MEM, $VM_SILENCE"; return 1; }
	grep -q "exit 3'.*vm.sh exits 3, so make fails (exit 2)" "$lab" ||
		{ echo "lab.md: make vm CMD='... exit 3' makes make exit 2"; return 1; }
	# shellcheck disable=SC2016 # backquotes of Markdown, not a command
	! grep -q 'edit, build with `make kernel`' "$readme" "$lab" ||
		{ echo "README, lab.md: make kernel builds commits, not edits"; return 1; }
	for f in "$LAB_ROOT"/config/*/base.conf; do
		if grep -qi 'included by the Makefile' "$f"; then
			grep -q '^include.*base.conf' "$LAB_ROOT/Makefile" || { echo "$f: the Makefile does not include it"; return 1; }
		fi
	done
	! grep -q 'within 0.5%\|about 0.1%' "$readme" "$lab" || { echo "an unmeasured repeatability figure"; return 1; }
	# the bases with a bench.config of their own, as lab.md's table of facts names them
	bases=$(for f in "$LAB_ROOT"/config/*/bench.config; do [[ -e $f ]] && basename "$(dirname "$f")"; done | sort -V | paste -sd, | sed 's/,/, /g')
	grep -q "(bases with one: $bases;" "$lab" ||
		{ echo "lab.md: the bases with their own bench.config are $bases (config/<base>/bench.config)"; return 1; }
	# the cache's directories: one per base, and those the scripts share under \$LAB_CACHE
	cache=$(sed -n '/^Build products live in/,/^$/p' "$lab" | tr '\n' ' ')
	# shellcheck disable=SC2016 # the scripts' own text, not an expansion
	for dir in $(lab_bases) $(grep -rhoE '\$LAB_CACHE/[a-z0-9]+' "$S" "$LAB_ROOT/tests" | sed 's|.*/||' | sort -u); do
		[[ $cache == *"\`$dir/\`"* ]] || { echo "lab.md: the lab cache's directory $dir/ is not named where the cache is described"; return 1; }
	done
	# no page names a path the lab does not have
	while read -r page; do
		missing=$(missing_paths "$page")
		[[ -z $missing ]] || { echo "${page#"$LAB_ROOT"/} names paths that do not exist: $(xargs <<<"$missing")"; return 1; }
	done < <(pages)
	echo "$(pages | wc -l) pages: every path they name exists"
	# nor does the prose beside the code, which calls no older version the series
	version=$(cat "$LAB_ROOT"/patches/*/cover-letter.txt "$LAB_ROOT"/patches/*/*/cover-letter.txt 2>/dev/null |
		sed -n 's/^Changes in \(v[0-9]*\).*/\1/p' | sort -V | tail -n1)
	[[ -n $version ]] || { echo "no 'Changes in vN' in the cover letters of patches/: the series' version is unknown"; return 1; }
	n=0
	while IFS=$'\t' read -r label file; do
		n=$((n + 1))
		missing=$(missing_paths "$file" bare)
		[[ -z $missing ]] || { echo "$label names paths that do not exist: $(xargs <<<"$missing")"; return 1; }
		stale=$(stale_versions "$file" "$version")
		[[ -z $stale ]] || { echo "$label calls another version than $version the series: $stale"; return 1; }
	done < <(texts)
	echo "$n texts beside the code (docstrings, lab/variants/README.md): every path they name exists; the series is $version"
}

run_test docs_match_the_lab "$@"
