#!/bin/bash
# The lab never writes into TREE=, the user's checkout: make tree makes the lab's own clone of it
# in $LAB_CACHE/own/ (git clone --shared: the checkout's objects read in place, nothing written
# there), tagged lab-base at the base revision with HEAD at the series; a kernel build's worktree
# and object directory are the clone's, in the cache. Every file of the checkout, .git included,
# keeps its content and time stamps through make tree, kernel.sh (up to its make, which fails on
# this small tree) and the dry runs of the measuring targets.
# Plant: the lab's tree made as a worktree of the user's checkout (git worktree add writes into
# its .git).
# Plant command: sed -i 's|git clone -q --shared --no-checkout "$OWN_TREE" "$TREE"|git -C "$OWN_TREE" worktree add -q --no-checkout --detach "$TREE"|' scripts/lib/own-tree.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# state DIR: every file and directory of DIR with its size, time stamp and content hash
state() {
	(cd "$1" && find . -printf '%y %p %s %T@\n' | sort && find . -type f -print0 | sort -z | xargs -0 sha1sum)
}

own_tree_is_only_read() {
	local t=$scratch/linux before clone base series out target
	export LAB_CACHE=$scratch/cache
	own_tree "$t" 7 4
	base=$(git -C "$t" rev-parse upstream) series=$(git -C "$t" rev-parse main)
	before=$(state "$t")
	TREE=$t "$S/tree.sh"
	clone=$(TREE=$t "$S/lab-path.sh" TREE)
	echo "the lab's clone: ${clone#"$scratch"/}"
	[[ $clone == "$LAB_CACHE/own/linux-"*/linux ]] || { echo "not in \$LAB_CACHE/own/"; return 1; }
	[[ $(git -C "$clone" rev-parse lab-base HEAD) == "$base"$'\n'"$series" ]] ||
		{ echo "the clone's lab-base and HEAD are not the base and the series"; return 1; }
	grep -qxF "$t/.git/objects" "$clone/.git/objects/info/alternates" ||
		{ echo "the clone does not read the checkout's objects in place"; return 1; }
	out=$(TREE=$t "$S/kernel.sh" HEAD 2>&1) && { echo "$out"; echo "a kernel built from a fake tree"; return 1; }
	echo "kernel.sh HEAD (a Makefile without targets): $(tail -n1 <<<"$out")"
	if [[ $out != *"missing '"* ]]; then
		[[ $(git -C "$clone" worktree list | wc -l) == 2 ]] || { echo "the build worktree is not the clone's"; return 1; }
		compgen -G "$(dirname "$clone")/*/obj/bench" >/dev/null ||
			{ echo "no object directory in the clone's cache"; return 1; }
	fi
	for target in compare bench regress check-debug nmi; do
		(cd "$LAB_ROOT" && TREE=$t make -s -n "$target" >/dev/null 2>&1) || { echo "make -n $target failed"; return 1; }
	done
	[[ $(git -C "$t" worktree list | wc -l) == 1 ]] || { echo "a worktree was added to the checkout"; return 1; }
	diff <(echo "$before") <(state "$t") || { echo "the checkout changed"; return 1; }
	echo "the checkout: $(wc -l <<<"$before") entries, unchanged"
}

run_test own_tree_is_only_read "$@"
