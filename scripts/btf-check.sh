#!/bin/bash
# The BTF of REV's LLVM=1 kernel against its gcc kernel's: what pahole and resolve_btfids said while
# making each one's BTF (the btf-warnings kernel.sh keeps with a kernel), counted, and every kind
# of warning the LLVM build has and the gcc build has not. Builds the two kernels if missing.
# Exits 1 when the LLVM build has a warning the gcc build has not: an unresolved BTF ID too. One
# that both leave unresolved is the commit's and its config's, not the toolchain's, and is named
# (7.3's bench kernel: net/core/bpf_ksock.c asks for bpf_lsm_socket_sendmsg, which exists only
# with CONFIG_SECURITY_NETWORK, off in config/bench.config).
#   scripts/btf-check.sh [-c bench|selftests|debug|regress] [REV]   (default: bench, the tree's HEAD)
# Lines that differ only in numbers (BTF IDs, DWARF offsets) are one kind of warning.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
own_group "$@"
check_knobs

usage="usage: scripts/btf-check.sh [-c bench|selftests|debug|regress] [REV]"
config=bench
while getopts :c:h opt; do
	case $opt in
	c) config=$OPTARG ;;
	h) echo "$usage"; exit 0 ;;
	*) bad_option "$opt" "$OPTARG" "$usage" ;;
	esac
done
shift $((OPTIND - 1))
(($# <= 1)) || die "$usage"
[[ -n $KERNEL_LLVM ]] || die "config/$BASE/toolchain.conf names no KERNEL_LLVM: no LLVM=1 kernel to check"
rev=${1:-HEAD}

# warnings TOOLCHAIN: the BTF warnings of REV's kernel built with it (gcc, or llvm: LLVM=1), the
# numbers in them as N. A kernel built before kernel.sh kept them has them in its object
# directory's build log while that directory still holds it.
warnings() {
	local llvm=0 kernel obj
	[[ $1 == gcc ]] || llvm=1
	kernel=$(LLVM=$llvm "$LAB_ROOT/scripts/kernel.sh" -c "$config" "$rev") || return 1
	obj=$(LLVM=$llvm bash -c '. "$1/lib.sh"; kernel_obj "$2"' - "$LAB_ROOT/scripts" "$config")
	if [[ -f $kernel/btf-warnings ]]; then
		cat "$kernel/btf-warnings"
	elif [[ $(cat "$obj/.lab-kernel" 2>/dev/null) == "$kernel" ]] && grep -q '^  BTF *\.tmp_vmlinux' "$obj/build.log"; then
		sed -n '/^  BTF *\.tmp_vmlinux/,$p' "$obj/build.log" |
			grep -vE '^  [A-Z][A-Z0-9_]*( \[M\])? +[^ ]|^make(\[[0-9]+\])?: (Entering|Leaving) directory|^Kernel: .* is ready' || true
	else
		echo "error: $kernel keeps no btf-warnings (built before kernel.sh kept them): remove it and build it again" >&2
		return 1
	fi | sed -E 's/0x[0-9a-fA-F]+/N/g; s/[0-9]+/N/g' | sort | uniq -c | sed 's/^ *//'
	echo "# ${kernel##*/}"
}

gcc=$(warnings gcc) || exit 1
llvm=$(warnings llvm) || exit 1
summary() {
	local total unresolved
	total=$(awk '!/^#/ { n += $1 } END { print n + 0 }' <<<"$2")
	unresolved=$(awk '/unresolved symbol/ { n += $1 } END { print n + 0 }' <<<"$2")
	echo "$1 ($(sed -n 's/^# //p' <<<"$2")): $total BTF warnings, $unresolved unresolved BTF IDs"
	sed -n '/^#/!s/^/  /p' <<<"$2"
}
summary gcc "$gcc"
summary "LLVM=1" "$llvm"
kinds() {
	sed -n '/^#/!s/^[0-9]* //p' <<<"$1" | sort
}
new=$(comm -13 <(kinds "$gcc") <(kinds "$llvm"))
rc=0
if [[ -n $new ]]; then
	echo "LLVM=1 has BTF warnings that gcc has not:"
	sed 's/^/  /' <<<"$new"
	rc=1
fi
if grep -q 'unresolved symbol' <<<"$new"; then
	echo "LLVM=1 leaves BTF IDs unresolved that gcc resolves"
fi
both=$(comm -12 <(kinds "$gcc") <(kinds "$llvm") | sed -n 's/.*unresolved symbol //p' | xargs)
[[ -z $both ]] || echo "unresolved in both builds, the commit's and its config's: $both"
((rc)) || echo "LLVM=1: no BTF warning that gcc has not, no BTF ID unresolved that gcc resolves"
exit "$rc"
