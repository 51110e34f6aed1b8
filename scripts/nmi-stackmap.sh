#!/bin/bash
# bpf_get_stackid() on a full stack map from NMI context, on the base and on the series, in the VM.
# The guest has no PMU, so no perf_event program runs in NMI: tools/testing/nmi_stackmap takes its
# NMIs from the all-CPU backtrace (sysrq 'l', an NMI IPI), whose nmi_handler tracepoint runs a BPF
# program that pops the map's freelist, while a task on the NMI's CPU pops and pushes it. Fails if
# a kernel shows a splat that config/<base>/known-splats does not name, is tainted or turns lockdep
# off during the run, or no pop in NMI got -ENOMEM (no node). Prints each kernel's counts
# (scripts/nmi_results.py). The VM logs and the table land in
# $LAB_CACHE/<base>/results/nmi-stackmap-<config>/<date>/ (scripts/lib/results.sh, with a `latest`
# link); the last line names it.
#   scripts/nmi-stackmap.sh [-c regress|debug] [-d SECONDS] [-R] [REV...]
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs

usage() {
	cat <<'USAGE'
usage: scripts/nmi-stackmap.sh [-c regress|debug] [-d SECONDS] [-R] [REV...]
    -c CONFIG  the kernels: regress (the selftests' config, lockdep; default) or debug (check-debug's:
               KCSAN and lockdep)
    -d SECONDS how long each kernel runs the NMIs, 1 to 3600 (default 10)
    -R         record: both kernels' logs and their counts, records/<base>/nmi/ (scripts/records.py)
    REV...     the commits to run (default: lab-base and HEAD, the base and the series)
USAGE
	exit 0
}
config=regress seconds=10 record=0
while getopts :c:d:Rh opt; do
	case $opt in
	c) config=$OPTARG ;;
	d) seconds=$OPTARG ;;
	R) record=1 ;;
	h) usage ;;
	*) bad_option "$opt" "$OPTARG" "scripts/nmi-stackmap.sh -h" ;;
	esac
done
shift $((OPTIND - 1))
[[ $config == regress || $config == debug ]] || die "-c $config: expected regress or debug"
if ! [[ $seconds =~ ^[1-9][0-9]{0,3}$ ]] || ((seconds > 3600)); then
	die "-d $seconds: expected whole seconds, 1 to 3600"
fi
# name=rev: a kernel's name in the table and the record, and its commit
if (($#)); then
	revs=()
	for rev; do
		name=${rev,,}
		name=${name//[^a-z0-9._-]/-}
		[[ " ${revs[*]%%=*} " != *" $name "* ]] || die "$rev: named $name in the table, as another REV is"
		revs+=("$name=$rev")
	done
else
	revs=("base=$BASE_TAG" "series=HEAD")
fi

S=$LAB_ROOT/scripts
"$S/tree.sh"
out=$(results_dir "nmi-stackmap-$config")
logs=() commits=() counted=() status=0
for named in "${revs[@]}"; do
	name=${named%%=*}
	commit=$(tree_commit "${named#*=}")
	kernel=$("$S/kernel.sh" -c "$config" "$commit")
	st=$("$S/bench-build.sh" -c "$config" "$commit" test_progs)
	tool=$(nmi_stackmap_build "$st")
	log=$out/$name.log
	note "$name, the $config kernel of ${commit:0:12}: $seconds s of NMIs"
	set +e
	"$S/vm.sh" -k "$kernel" -c "$VM_CPUS" -m "${MEM:-$DEBUG_MEM}" -t "${TIMEOUT:-$((seconds + 600))}" -- \
		"dmesg -n 1; $(guest_command "$tool") -d $seconds; rc=\$?;
		dmesg | grep -nE -A25 $(guest_command "$SPLAT_RE"); exit \$rc" >"$log" 2>&1
	rc=$?
	set -e
	firsts=$(log_splats "$log")
	unknown=$(unknown_splats "$BASE_CONFIG/known-splats" <<<"$firsts")
	[[ -z $unknown ]] || { sed 's/^/unknown splat: /' <<<"$unknown" >&2; rc=1; }
	((rc == 0)) || status=1
	note "$name: exit status $rc, $(grep -c . <<<"$firsts" || true) splat(s), $(grep -c . <<<"$unknown" || true) unknown"
	logs+=("$log") commits+=("${commit:0:12}") counted+=("$log=$(grep -c . <<<"$firsts" || true),$(grep -c . <<<"$unknown" || true)")
done
"$S/nmi_results.py" "${counted[@]}" | tee "$out/table.md" || status=1
if ((record)) && [[ -s $out/table.md ]]; then
	variants=() files=("table.md=$out/table.md")
	for i in "${!logs[@]}"; do
		variants+=(--variant "$(basename "${logs[i]}" .log)=${commits[i]}")
		files+=("$(basename "${logs[i]}")=${logs[i]}")
	done
	r=$("$S/records.py" write --kind nmi --name "nmi-stackmap-$config" --clock wall-tcg --status "$status" \
		--what "bpf_get_stackid() on a full stack map in NMI (sysrq-l NMI IPIs), $config kernels, $seconds s each" \
		--command "BASE=$BASE scripts/nmi-stackmap.sh -c $config -d $seconds -R $*" "${variants[@]}" "${files[@]}")
	note "recorded in $r (git add it)"
fi
((status == 0)) || die "nmi-stackmap failed; the VM logs: $out/"
results_done "$out"
