#!/bin/bash
# Every lab command (scripts/, scripts/compare/, tests/plants.sh, the harness's run.sh, and each
# subcommand of the Python entry point, scripts/readout.py SUBCOMMAND) answers --help with its
# usage on stdout and exit 0, and an option it does not have with one line on stderr and a non-zero
# exit, in both cases before it does anything: the lab cache stays empty. (A --help once made
# mbox.sh write a file named "--help", and made tree.sh update the tree.)
# Plant: tree.sh taking any argument again, and running on.
# Plant command: sed -i '/no arguments taken/d' scripts/tree.sh
# Plant: readout.py leaving -h to its subcommands, some of which read it as a file name.
# Plant command: sed -i 's/^    if rest in (\["-h"\], \["--help"\]):$/    if False:/' scripts/readout/cli.py
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

commands() {
	local f
	for f in "$S"/*.sh "$S"/compare/*.sh "$LAB_ROOT/tests/plants.sh" "$LAB_ROOT/tools/testing/pcpu_freelist/run.sh"; do
		[[ -x $f ]] || continue					# lib.sh: sourced, not run
		case ${f##*/} in
		vm-init.sh | regress-guest.sh) continue ;;		# the VM's, not a command
		esac
		echo "$f"
	done
	# the Python entry point's subcommands, as its -h lists them
	"$S/readout.py" -h | sed -n '/^subcommands:$/,$ s|^  \([a-z-]*\) .*|'"$S"'/readout.py \1|p'
}

scripts_answer_help_and_refuse_bad_arguments() {
	local f name cache out err rc fails=0
	cache=$(mktemp -d)
	# shellcheck disable=SC2064 # expanded now
	trap "rm -rf '$cache'" RETURN
	while read -r f sub; do
		name=${f#"$LAB_ROOT"/}${sub:+ $sub}
		rc=0
		out=$(LAB_CACHE=$cache timeout 30 "$f" ${sub:+"$sub"} --help 2>/dev/null </dev/null) || rc=$?
		if ((rc != 0)) || [[ -z $out ]]; then
			echo "# $name --help: exit $rc, ${#out} bytes on stdout"
			fails=$((fails + 1))
		fi
		rc=0
		err=$(LAB_CACHE=$cache timeout 30 "$f" ${sub:+"$sub"} --no-such-option 2>&1 >/dev/null </dev/null) || rc=$?
		if ((rc == 0 || rc == 124)) || [[ $(wc -l <<<"$err") != 1 || $err != *error:* ]]; then
			echo "# $name --no-such-option: exit $rc, stderr:"
			sed 's/^/#   /' <<<"$err" | head -n 5
			fails=$((fails + 1))
		fi
		if [[ -n $(ls -A "$cache") ]]; then
			echo "# $name: wrote to the lab cache:" "$cache"/*
			rm -rf "${cache:?}"/*
			fails=$((fails + 1))
		fi
	done < <(commands)
	echo "# $(commands | wc -l) commands, $fails failures"
	((fails == 0))
}

run_test scripts_answer_help_and_refuse_bad_arguments "$@"
