#!/bin/bash
# make help lists every target and every knob that README.md and Documentation/lab.md name, so
# that what a reader meets in the pages, make help shows. A target is `make TARGET` in the pages'
# code (backquotes, indented blocks), or any target of the Makefile's .PHONY; a knob is NAME=... in
# the pages' code that the Makefile or a script reads (a fact of config/, NAME= there, is not one).
# A page that names a target the Makefile does not have fails too.
# Plant: make help without its line of make litmus, which both pages name.
# Plant command: sed -i '/^\t@echo "make litmus /d' Makefile
# Plant: make help without FORCE=1, which lab.md names (make tree's, make series's).
# Plant command: sed -i '/^\t@echo "  FORCE=1 /d' Makefile
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# reads NAME: the Makefile reads NAME ($(NAME), $(value NAME), NAME ?=, export NAME), or a
# script reads $NAME, ${NAME...} (the text of scripts/ without comments: $script_text)
reads() {
	grep -qE "\\\$\((value )?$1\)|^$1 [?:]?=|^(un)?export .*\b$1\b" "$LAB_ROOT/Makefile" ||
		grep -qE "\\\$\{?$1\b" <<<"$script_text"
}

make_help_names_every_target_and_knob() {
	local help code phony targets t k knobs=0 bad=0 f script_text
	script_text=$(find "$LAB_ROOT/scripts" -name '*.sh' -exec cat {} + | grep -v '^[[:space:]]*#')
	help=$(env -u MAKEFLAGS -u MAKELEVEL make -s -C "$LAB_ROOT" help)
	code=$(for f in README.md Documentation/lab.md; do
		# shellcheck disable=SC2016 # backquotes of Markdown, not a command
		grep -oE '`[^`]*`' "$LAB_ROOT/$f" || true
		grep -E '^    ' "$LAB_ROOT/$f" | sed 's/ #.*//' || true	# (shell comments in code blocks are prose)
	done)
	phony=$(sed -n 's/^\.PHONY://p' "$LAB_ROOT/Makefile" | xargs -n1)
	targets=$({ grep -oE '(^|[^a-z-])make [a-z][a-z0-9-]*' <<<"$code" | sed 's/.*make //'; echo "$phony"; } | sort -u)
	for t in $targets; do
		if ! grep -qxF -- "$t" <<<"$phony"; then
			echo "the pages name make $t: the Makefile has no such target"
			bad=1
		elif ! grep -qE "^make $t( |$)" <<<"$help"; then
			echo "make help does not list make $t"
			bad=1
		fi
	done
	for k in $(grep -oE '\b[A-Z][A-Z0-9_]*=' <<<"$code" | tr -d = | sort -u); do
		! grep -rqE "^$k=" "$LAB_ROOT/config" || continue
		reads "$k" || continue
		knobs=$((knobs + 1))
		grep -qw -- "$k" <<<"$help" || { echo "make help does not name the knob $k"; bad=1; }
	done
	echo "$(wc -w <<<"$targets") targets, $knobs knobs named by the pages"
	((bad == 0))
}

run_test make_help_names_every_target_and_knob "$@"
