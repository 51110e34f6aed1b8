#!/bin/bash
# Upstream's htab-mem (fd283ab196a8, "selftests/bpf: Add benchmark for bpf memory allocator", as in
# the 6.12 tree's lab-base) beside the 6.1 series' own, in one bench: measurement only, never part
# of patches/. Prints a commit of the 6.1 tree: REV plus upstream's two files under the name
# htab-mem-upstream, made once and kept as the tag lab-patched/htab-mem-upstream-<hash>.
#   BASE=6.1 lab/variants/htab-mem-upstream.sh [REV]      (default HEAD; needs make tree BASE=6.12)
# The files are taken from the 6.12 tree when the commit is made; nothing of them is in this repo.
# What changes to build them on 6.1: the benchmark, its skeleton and argp are renamed; 6.1's bench
# starts a consumer thread, so the benchmark gets one that returns at once; 6.1's struct env has no
# nr_cpus (the online CPUs), read with sysconf() instead; bench links cgroup_helpers.o, which
# upstream's uses.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
check_knobs

[[ ${1:-} != -h ]] || { sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0; }
[[ $BASE == 6.1 ]] || die "htab-mem-upstream is a 6.1 variant (BASE=6.1), not for BASE=$BASE"
upstream=$LAB_CACHE/6.12/linux
git -C "$upstream" rev-parse -q --verify lab-base >/dev/null 2>&1 ||
	die "no 6.12 tree at $upstream to take upstream's htab-mem from (run: make tree BASE=6.12)"
rev=$(tree_commit "${1:-HEAD}")
st=tools/testing/selftests/bpf
src=$(git -C "$upstream" rev-parse "lab-base:$st/benchs/bench_htab_mem.c")
prog=$(git -C "$upstream" rev-parse "lab-base:$st/progs/htab_mem_bench.c")
tag=lab-patched/htab-mem-upstream-$(echo "$rev $src $prog $(sha1sum <"$0")" | sha1sum | cut -c1-8)
if git -C "$TREE" rev-parse -q --verify "$tag^{commit}" >/dev/null; then
	git -C "$TREE" rev-parse "$tag^{commit}"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$upstream" show "lab-base:$st/benchs/bench_htab_mem.c" |
	sed -e 's/htab_mem_bench/htab_mem_upstream_bench/g' \
	    -e 's/bench_htab_mem_argp/bench_htab_mem_upstream_argp/g' \
	    -e 's/env\.nr_cpus/(int)sysconf(_SC_NPROCESSORS_ONLN)/g' \
	    -e 's/^const struct bench bench_htab_mem = {/static void *htab_mem_upstream_consumer(void *arg)\n{\n\treturn NULL;\n}\n\nconst struct bench bench_htab_mem_upstream = {/' \
	    -e 's/^\t\.name = "htab-mem",/\t.name = "htab-mem-upstream",\n\t.consumer_thread = htab_mem_upstream_consumer,/' \
	    >"$tmp/bench_htab_mem_upstream.c"
git -C "$upstream" show "lab-base:$st/progs/htab_mem_bench.c" >"$tmp/htab_mem_upstream_bench.c"
git -C "$TREE" show "$rev:$st/bench.c" |
	sed -e 's/^\t&bench_htab_mem,$/&\n\t\&bench_htab_mem_upstream,/' \
	    -e 's/^\t{ &bench_htab_mem_argp, 0, "htab-mem benchmark", 0 },$/&\n\t{ \&bench_htab_mem_upstream_argp, 0, "upstream'"'"'s htab-mem benchmark", 0 },/' \
	    >"$tmp/bench.c"
git -C "$TREE" show "$rev:$st/bench.h" |
	sed 's/^extern const struct bench bench_htab_mem;$/&\nextern const struct argp bench_htab_mem_upstream_argp;\nextern const struct bench bench_htab_mem_upstream;/' \
	>"$tmp/bench.h"
# shellcheck disable=SC2016 # make's $(OUTPUT), not the shell's
git -C "$TREE" show "$rev:$st/Makefile" |
	sed -e 's|^\$(OUTPUT)/bench_htab_mem.o: \$(OUTPUT)/htab_mem_bench.skel.h$|&\n$(OUTPUT)/bench_htab_mem_upstream.o: $(OUTPUT)/htab_mem_upstream_bench.skel.h|' \
	    -e 's|^\t\t \$(OUTPUT)/bench_htab_mem.o$|\t\t $(OUTPUT)/bench_htab_mem.o \\\n\t\t $(OUTPUT)/bench_htab_mem_upstream.o \\\n\t\t $(CGROUP_HELPERS)|' \
	    >"$tmp/Makefile"
# every edit above must have found its line
for f in 'bench.c:&bench_htab_mem_upstream,' bench.h:bench_htab_mem_upstream_argp \
	 Makefile:bench_htab_mem_upstream.o 'bench_htab_mem_upstream.c:.consumer_thread = htab' \
	 'bench_htab_mem_upstream.c:bench bench_htab_mem_upstream = {'; do
	grep -qF -- "${f#*:}" "$tmp/${f%%:*}" || die "${f%%:*}: upstream's or $rev's file changed shape; cannot add htab-mem-upstream"
done

export GIT_INDEX_FILE=$tmp/index
git -C "$TREE" read-tree "$rev"
for f in bench.c:$st/bench.c bench.h:$st/bench.h Makefile:$st/Makefile \
	 bench_htab_mem_upstream.c:$st/benchs/bench_htab_mem_upstream.c \
	 htab_mem_upstream_bench.c:$st/progs/htab_mem_upstream_bench.c; do
	blob=$(git -C "$TREE" hash-object -w "$tmp/${f%%:*}")
	git -C "$TREE" update-index --add --cacheinfo "100644,$blob,${f#*:}"
done
tree=$(git -C "$TREE" write-tree)
unset GIT_INDEX_FILE
commit=$(git -C "$TREE" commit-tree "$tree" -p "$rev" \
	-m "lab: upstream's htab-mem (fd283ab196a8) as htab-mem-upstream, measurement only")
git -C "$TREE" tag "$tag" "$commit"
echo "$commit"
