#!/bin/bash
# What README, EVIDENCE.md and Documentation/ (lab.md, regress.md, findings/) say about the lab is true: each
# statement checked here against the scripts, the config or the records that produced its number;
# and no page outside Documentation/archive/ names a path the lab no longer has.
# Plant: a default changed in config/vm.conf and not in lab.md.
# Plant command: sed -i 's/^BENCH_TIMEOUT=1200/BENCH_TIMEOUT=1500/' config/vm.conf
# Plant: a base gets its own bench.config, and lab.md still names the others only (lab.md:19 said
# "neither does now" when two did).
# Plant command: echo CONFIG_BPF=y >config/6.1/bench.config
# Plant: a page links a results file that moved (the pages named Documentation/results/ before it
# became records/ and archive/).
# Plant command: sed -i 's|(Documentation/lab.md) |(Documentation/results/lab.md) |' README.md
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# pages: the pages that describe the lab today (not the frozen archive)
pages() {
	echo "$LAB_ROOT/README.md"
	echo "$LAB_ROOT/EVIDENCE.md"
	find "$LAB_ROOT/Documentation" -path "$LAB_ROOT/Documentation/archive" -prune -o -name '*.md' -print | sort
}

# missing_paths PAGE: the paths of the lab a page names (`...` or a link) that do not exist; a
# test's name (tier/name) counts as its tests/ file, kernel-tree paths and placeholders are skipped
missing_paths() {
	local page=$1 p
	{
		# shellcheck disable=SC2016 # backquotes of Markdown, not a command
		grep -o '`[^` ]*`' "$page" | tr -d '`' || true	# (a page may name none)
		grep -o '](\([^)]*\))' "$page" | sed 's/^](//; s/)$//; s/#.*//' | sed "s|^|@|" || true
	} | sort -u | while read -r p; do
		if [[ $p == @* ]]; then
			p=${p#@}
			[[ -n $p && $p != http* ]] || continue
			[[ -e $(dirname "$page")/$p ]] || echo "$p"
			continue
		fi
		p=${p%%:*}
		[[ $p =~ ^(config|scripts|tests|lab|tools|records|Documentation|patches)/ ]] || continue
		[[ $p == *[\<\*\{\[]* || $p =~ (NAME|ROW|BASE) ]] && continue
		[[ $p =~ ^(tools/testing/selftests|tools/memory-model|tools/include|scripts/kconfig)(/|$) ]] && continue
		[[ -e $LAB_ROOT/$p || -e $LAB_ROOT/tests/$p.sh ]] || echo "$p"
	done
	return 0
}

docs_match_the_lab() {
	local readme=$LAB_ROOT/README.md lab=$LAB_ROOT/Documentation/lab.md spread others page missing dir bases cache
	spread=$("$S/readout.py" spread "$LAB_ROOT"/records/*/compare/*/trials.csv | sed -n 's/^icount: .*median \([0-9.]*%\), 90th percentile \([0-9.]*%\), max \([0-9.]*%\)$/\1 \2 \3/p')
	echo "icount spread (median, 90th percentile, max): $spread"
	read -r median p90 max <<<"$spread"
	others=$("$S/readout.py" spread -x 'rhash-*' "$LAB_ROOT"/records/*/compare/*/trials.csv | sed -n 's/^icount: .*max \([0-9.]*%\)$/\1/p')
	# the knobs and their figures are lab.md's (README.md names lab.md for them)
	tr '\n' ' ' <"$lab" | grep -q "$median at the median, $p90 at the 90th percentile and $max" ||
		{ echo "$lab does not give the icount spread as $spread"; return 1; }
	tr '\n' ' ' <"$lab" | grep -q "the other rows up *to $others" ||
		{ echo "$lab does not give the spread of the rows other than rhash-* as $others"; return 1; }
	tr '\n' ' ' <"$lab" | grep -q "$VM_TIMEOUT for \`make vm\`, $BENCH_TIMEOUT for \`make bench\`" ||
		{ echo "lab.md: TIMEOUT defaults are config/vm.conf's $VM_TIMEOUT and $BENCH_TIMEOUT"; return 1; }
	tr '\n' ' ' <"$lab" | grep -q "\`CPUS=$VM_CPUS\` online CPUs.*\`MEM=$VM_MEM\`.*\`SILENCE=$VM_SILENCE\` seconds" ||
		{ echo "lab.md: CPUS, MEM, SILENCE defaults are config/vm.conf's $VM_CPUS, $VM_MEM, $VM_SILENCE"; return 1; }
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
}

run_test docs_match_the_lab "$@"
