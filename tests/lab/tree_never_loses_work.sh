#!/bin/bash
# tree.sh never loses work: with patches/ changed it refuses to rebuild over uncommitted changes
# or commits that are not in patches/, names them and the command that keeps them; after a failed
# git am it says so again, not something false; series.sh then does not delete the patches
# that were not applied. make kernel says that it builds HEAD. Two runs on one tree take turns.
# Plant: tree.sh rebuilding over uncommitted changes (its check of git status dropped).
# Plant command: sed -i 's/if \[\[ -n \$changes \]\]; then/if false; then/' scripts/tree.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# dev_tree DIR: a clone of the tree for tree.sh to manage (sparse: only the directories the
# series touches are checked out), with the tree's stamp.
dev_tree() {
	local dir=$1
	git clone -q --shared --no-checkout "$TREE" "$dir"
	# shellcheck disable=SC2046 # one word per directory and per patch
	git -C "$dir" sparse-checkout set --no-cone $(sed -n 's|^--- a/\(.*\)/[^/]*$|/\1/|p' $(patches) | sort -u)
	git -C "$dir" checkout -q main
	cp "$TREE/.git/lab-stamp" "$dir/.git/lab-stamp"
}

tree_never_loses_work() {
	local dev=$scratch/dev tp=$scratch/dev-patches out last k broken rel
	# The kernel of HEAD, built from the lab's own tree: the sparse dev tree below must find it
	# built, or the build worktree would be made from the sparse tree, without a Makefile.
	"$S/kernel.sh" HEAD >/dev/null
	dev_tree "$dev"
	mkdir -p "$tp"
	cp -r "$PATCHES"/. "$tp/"	# a flat base's files, or its series directories
	last=$(patches | tail -n1)
	export LAB_TREE=$dev LAB_PATCHES=$tp

	# Another run holds the tree: this one waits for it.
	flock "$dev.lock" sleep 4 &
	sleep 0.5
	out=$("$S/tree.sh" 2>&1)
	echo "$out"
	grep -q "waiting for another run on $dev" <<<"$out" || { echo "did not wait for the lock"; return 1; }
	wait

	echo "/* uncommitted */" >>"$dev/kernel/bpf/percpu_freelist.c"
	"$S/kernel.sh" HEAD 2>&1 | tee "$scratch/dev-kernel.out"
	grep -q "uncommitted changes; this builds the committed HEAD" "$scratch/dev-kernel.out"
	rm "$tp/${last#"$PATCHES"/}"	# patches/ changed
	expect_fail "stash push --all" "$S/tree.sh"
	expect_fail "M kernel/bpf/percpu_freelist.c" "$S/tree.sh"
	grep -q uncommitted "$dev/kernel/bpf/percpu_freelist.c" || { echo "the uncommitted edit is lost"; return 1; }
	git -C "$dev" stash push -q --all	# the command it names
	"$S/tree.sh"
	[[ -n $(git -C "$dev" stash list) ]] || { echo "the stash is lost"; return 1; }

	git -C "$dev" commit -q -s --allow-empty -m "lab: a commit of the developer"
	cp "$last" "$tp/${last#"$PATCHES"/}"	# patches/ changed again
	expect_fail "lab: a commit of the developer" "$S/tree.sh"
	expect_fail "keep them with: make series" "$S/tree.sh"
	[[ $(git -C "$dev" log -1 --format=%s) == "lab: a commit of the developer" ]] || { echo "the commit is lost"; return 1; }
	git -C "$dev" reset -q --hard HEAD^

	# A patch that does not apply (the first after the first that removes a line, so that the
	# tree is left half applied): the next run says the same, true thing. The mismatch goes into
	# the first removed line of a hunk; a patch that removes none comes out unchanged.
	k=0 broken=''
	for p in $(patches); do
		k=$((k + 1))
		((k > 1)) || continue
		rel=${p#"$PATCHES"/}
		awk '/^@@ / { hunk = 1 } hunk && !done && /^-[^-]/ { $0 = $0 " planted mismatch"; done = 1 } { print }' \
			"$p" >"$tp/$rel"
		! cmp -s "$p" "$tp/$rel" || continue
		broken=$p
		break
	done
	[[ -n $broken ]] || { echo "no patch after the first removes a line: nothing to make fail"; return 1; }
	expect_fail "patch $(basename "$broken") does not apply" "$S/tree.sh"
	expect_fail "patch $(basename "$broken") does not apply" "$S/tree.sh"
	expect_fail "would delete patches that are not in the tree: $(patches | sed -n "$k,\$p" | sed "s|^$PATCHES/||" | xargs)" "$S/series.sh"
	[[ $(LAB_PATCHES=$tp bash -c '. "$1/lib.sh"; series_patches' - "$S" | wc -l) == $(patches | wc -l) ]] ||
		{ echo "series.sh deleted patches"; ls "$tp"; return 1; }
}

run_test tree_never_loses_work "$@"
