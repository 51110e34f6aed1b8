#!/bin/bash
# Runs shellcheck on every shell script of the lab: scripts/, tests/, lab/, .ci/run, tools/ (what
# starts with a bash or sh shebang, and the sourced libraries), one KTAP line a file. 0 findings at any
# severity; a finding that is not a bug carries a `# shellcheck disable=SCnnnn # reason` directive
# on the line before it. .shellcheckrc makes shellcheck follow the sourced files.
#   tests/unit/shellcheck.sh
# Plant: an unquoted variable appended to a script.
# Plant command: echo 'echo $PLANTED_UNQUOTED' >>scripts/bench.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

need shellcheck
# shell_scripts: the shell scripts of the repository, relative to its root, one a line.
shell_scripts() {
	local f
	(cd "$LAB_ROOT" && find scripts tests tools lab .ci -type f | sort) | while read -r f; do
		case $f in
		*.sh | .ci/run) echo "$f" ;;
		*) if head -n1 "$LAB_ROOT/$f" | grep -qE '^#!(/usr)?/bin/(env )?(ba)?sh'; then echo "$f"; fi ;;
		esac
	done
}
mapfile -t files < <(shell_scripts)
# Following the sourced libraries makes shellcheck 7 times slower (30 s of CPU for all the files
# here): a file's findings are kept in the cache under a hash of the file, the libraries it may
# source, the configuration and shellcheck's version, and only files whose hash changed are
# checked again, as many shellchecks at once as there are CPUs.
cache=$LAB_CACHE/shellcheck
mkdir -p "$cache"
common=$(cd "$LAB_ROOT" && { shellcheck --version; cat .shellcheckrc scripts/lib.sh scripts/lib/*.sh scripts/gates.sh tests/lib.sh \
	tests/ktap.sh tests/bench/lib.sh config/*.conf config/*/*.conf 2>/dev/null; } | sha1sum | cut -c1-40)
# A file's key: the common hash and the file's own, from one sha1sum of every file.
declare -A keys
while read -r sum f; do
	keys[$f]=$common-$sum
done < <(cd "$LAB_ROOT" && sha1sum -- "${files[@]}")
todo=()
for f in "${files[@]}"; do
	[[ -f $cache/${keys[$f]} ]] || todo+=("$f")
done
if ((${#todo[@]})); then
	# findings make shellcheck exit 1: they are read from the file
	(cd "$LAB_ROOT" && printf '%s\n' "${todo[@]}" | xargs -P "$(nproc)" -n 8 shellcheck -x -f gcc >"$scratch/findings") || true
	for f in "${todo[@]}"; do
		grep "^$f:" "$scratch/findings" >"$cache/${keys[$f]}" || true
	done
fi
ktap_print_header
ktap_set_plan "${#files[@]}"
for f in "${files[@]}"; do
	mine=$(<"$cache/${keys[$f]}")
	if [[ -z $mine ]]; then
		ktap_test_pass "$f"
	else
		sed 's/^/# /' <<<"$mine"
		ktap_test_fail "$f"
	fi
done
ktap_finished
