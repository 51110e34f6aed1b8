#!/bin/bash
# A patch's key and a commit's key (git patch-id --stable of the change, and a hash of the message:
# what make tree and make series compare, and what a record's meta.json keeps) have one definition,
# scripts/readout/patch_keys.py, which the shell asks in batches (readout.py keys; patch_keys and
# commit_keys of scripts/lib/patches.sh): no other file of the lab's scripts or harnesses, shell or
# Python, runs git patch-id or defines a key of its own. (tests/series reads the prerequisite-patch-id
# lines of git format-patch, which are git's, not the lab's keys.)
# Plant: the shell's own commit key again, as scripts/lib/patches.sh had before it called patch_keys.py.
# Plant command: printf '\ncommit_key() {\n\tgit -C "$1" show "$2" | git -C "$1" patch-id --stable | cut -c1-40\n}\n' >>scripts/lib/patches.sh
# Plant: a second patch-id in Python.
# Plant command: printf '\n\ndef patch_key(path):\n    return subprocess.run(["git", "patch-id", "--stable"], stdin=open(path))\n' >>scripts/readout/records.py
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

patch_keys_made_in_one_place() {
	local others
	others=$(cd "$LAB_ROOT" || exit; {
		grep -rlE --include='*.sh' '^[^#]*git( -C [^ ]+)? patch-id|^(patch_key|commit_key) *\(\)' scripts tools
		grep -rlE --include='*.py' "[\"']patch-id[\"']|^ *def (patch_key|commit_key)\\b" scripts tools
	} | grep -vx scripts/readout/patch_keys.py || true)
	echo "files that make keys: $(cd "$LAB_ROOT" && grep -rlE "[\"']patch-id[\"']" scripts tools | xargs)"
	[[ -z $others ]] || { echo "patch keys made outside scripts/readout/patch_keys.py: $(xargs <<<"$others")"; return 1; }
}

run_test patch_keys_made_in_one_place "$@"
