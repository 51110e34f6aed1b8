# The stages of the lab's one pipeline (part of scripts/lib.sh), each a function:
#   stage_tree      the kernel git tree, made or brought up to date (scripts/tree.sh), once a command
#   stage_commit    a VARIANT's commit of the tree (commit_of)
#   stage_kernel    a commit's kernel, built with a config: bench, debug or regress (scripts/kernel.sh)
#   stage_bench     a commit's bench or selftests, built for that config (scripts/bench-build.sh),
#                   and tools/testing/nmi_stackmap against them (stage_tool)
#   stage_boot      the VM booted on the kernel, a runner of scripts/guest/ run in it (scripts/vm.sh)
#   stage_judge     the run's splats against config/<base>/known-splats (scripts/lib/splats.sh)
#   stage_runs_line the run as one JSON line of a runs file, and its status (scripts/readout.py benchout run -a)
#   lab_record      with RECORD=1, what a command measured as a record (scripts/readout.py records write)
# scripts/measure.sh runs them in that order; make regress calls the ones it needs around its
# resume loop. DRY_RUN=1 (measure.sh -n, `make -n TARGET`): each stage prints the commands it would
# run, "+ COMMAND", and runs none of them: nothing is built or booted. A command whose output the
# next stages use is printed "+ NAME=$(COMMAND)", and "$NAME" stands for that output after it.
# Knobs and options are still checked first, as in a real run.
# shellcheck shell=bash

# dry_run: whether this is a dry run (DRY_RUN=1)
dry_run() {
	[[ ${DRY_RUN:-0} == 1 ]]
}

# shown ARG...: ARG... as one line of shell for a dry run's print: each argument quoted where it
# needs it, the lab's own paths from its top, the stand-in "$NAME" of an earlier output as it is.
shown() {
	local a out=()
	for a; do
		a=${a//"$LAB_ROOT"\//}
		if [[ $a =~ ^\$[a-z_][a-z0-9_]*$ ]]; then
			out+=("\"$a\"")
		elif [[ $a =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then
			out+=("$a")
		else
			# a stand-in quoted inside (guest_command's \$NAME) shown as $NAME
			a=${a//\\\$/\$}
			if [[ $a != *\'* ]]; then
				out+=("'$a'")
			else
				a=${a//\\/\\\\}
				out+=("\"${a//\"/\\\"}\"")
			fi
		fi
	done
	echo "${out[*]}"
}

# stage_run COMMAND...: run COMMAND; a dry run prints it.
stage_run() {
	if dry_run; then
		echo "+ $(shown "$@")"
		return 0
	fi
	"$@"
}

# stage_out NAME COMMAND...: NAME=$(COMMAND); a dry run prints "+ NAME=$(COMMAND)" and sets NAME to
# its stand-in, "$NAME". With TREE=, a dry run names the commit of base, series or a revision
# (tree_commit, commit_of but of a lab variant), which the user's checkout gives without writing:
# "+ NAME=COMMIT  # COMMAND".
stage_out() {
	local _name=$1 _out
	shift
	if dry_run && [[ -n $OWN_TREE ]] && [[ $1 == tree_commit || ($1 == commit_of && $2 != "\$"*) ]] &&
		! variant_known "$2"; then
		_out=$("$@") || exit
		echo "+ $_name=$_out  # $(shown "$@"), TREE=$OWN_TREE"
	elif dry_run; then
		echo "+ $_name=\$($(shown "$@"))"
		_out="\$$_name"
	else
		_out=$("$@") || return
	fi
	printf -v "$_name" '%s' "$_out"
}

# commit_of VARIANT: its commit of the tree. VARIANT: base (the pristine base), series (the tree's
# HEAD), a variant of lab/variants/index (variant_commit makes it) or a commit-ish of the tree.
commit_of() {
	case $1 in
	base) tree_commit "$BASE_TAG" ;;
	series) tree_commit HEAD ;;
	*)
		if variant_known "$1"; then
			variant_commit "$1"
		elif [[ -n $OWN_TREE ]]; then
			own_tree_commit "$1" ||
				die "unknown variant '$1' (base, series, a commit of TREE=$OWN_TREE, or a variant of lab/variants/index)"
		else
			git -C "$TREE" rev-parse --verify -q "$1^{commit}" ||
				die "unknown variant '$1' (base, series, a commit of the tree, or a variant of lab/variants/index)"
		fi
		;;
	esac
}

# variant_known NAME: NAME (or NAME-<base>) is a variant of lab/variants/index
variant_known() {
	variant_index | awk -v n="$1" -v b="$1-$BASE" '$1 == n || $1 == b { f = 1 } END { exit !f }'
}

# check_variant VARIANT: one line and a non-zero exit for a VARIANT that is none (base, series, a
# variant of the index, or, where the tree exists, a commit-ish of it; in a dry run, the stand-in
# of an earlier stage's output), before any stage runs
check_variant() {
	[[ -n $1 ]] || die "an empty VARIANT (-K, -B, REV): expected base, series, a variant or a commit-ish"
	if [[ -n $OWN_TREE ]]; then	# TREE=: the user's checkout is there to ask, dry run or not
		[[ $1 == series ]] || variant_known "$1" || own_tree_commit "$([[ $1 != base ]] && echo "$1" || echo "$BASE_TAG")" >/dev/null ||
			die "unknown variant '$1' (base, series, a commit of TREE=$OWN_TREE, or a variant of lab/variants/index)"
		return 0
	fi
	[[ $1 != base && $1 != series ]] && git -C "$TREE" rev-parse -q --git-dir >/dev/null 2>&1 || return 0
	! dry_run || [[ ! $1 =~ ^\$[a-z_][a-z0-9_]*$ ]] || return 0	# an earlier stage's stand-in
	variant_known "$1" || git -C "$TREE" rev-parse --verify -q "$1^{commit}" >/dev/null ||
		die "unknown variant '$1' (base, series, a commit of the tree, or a variant of lab/variants/index)"
}

# short_commit COMMIT: its first 12 digits, as runs and records name it (a dry run's stand-in whole)
short_commit() {
	if dry_run; then echo "$1"; else echo "${1:0:12}"; fi
}

# stage_tree: the tree made or brought up to date (scripts/tree.sh), once a command: the commands it
# starts after it (measure.sh a trial, ...) find it done (LAB_TREE_STAGED, inherited) and skip it.
# The measuring targets of the Makefile have it here, not as a prerequisite.
stage_tree() {
	[[ ${LAB_TREE_STAGED:-} != "$TREE" ]] || return 0
	stage_run "$LAB_ROOT/scripts/tree.sh"
	export LAB_TREE_STAGED=$TREE
}

# stage_commit NAME VARIANT: NAME=the commit of VARIANT
stage_commit() {
	stage_out "$1" commit_of "$2"
}

# stage_kernel NAME CONFIG COMMIT: NAME=the directory of COMMIT's kernel built with CONFIG
stage_kernel() {
	stage_out "$1" "$LAB_ROOT/scripts/kernel.sh" -c "$2" "$3"
}

# stage_bench NAME CONFIG COMMIT [TARGET...]: NAME=the directory of COMMIT's selftests TARGET...
# (default: bench) built for CONFIG's kernel
stage_bench() {
	local name=$1 config=$2
	shift 2
	stage_out "$name" "$LAB_ROOT/scripts/bench-build.sh" -c "$config" "$@"
}

# stage_tool NAME SELFTESTS: NAME=tools/testing/nmi_stackmap built against the selftests directory
# SELFTESTS (built with test_progs), in the cache
stage_tool() {
	stage_out "$1" "$LAB_ROOT/tools/testing/nmi_stackmap/build.sh" "$2" \
		"$BASE_CACHE/nmi-stackmap/$(basename "$2")" "clang${SELFTESTS_LLVM:+-$SELFTESTS_LLVM}"
}

# stage_boot LOG QUIET WHAT COMMAND...: run COMMAND (vm.sh, or a runner on the host), its output to
# LOG and its stderr (the kernel's messages) to LOG.err, both shown too unless QUIET is 1; its
# exit status in boot_status. A dry run prints COMMAND.
stage_boot() {
	local log=$1 quiet=$2 what=$3
	shift 3
	# shellcheck disable=SC2034 # read by the caller
	boot_status=0
	if dry_run; then
		echo "+ $(shown "$@") > $(shown "$log") 2> $(shown "$log.err"); status=\$?"
		# shellcheck disable=SC2016 # a dry run's stand-in
		boot_status='$status'
		return 0
	fi
	: >"$log.err"
	# shellcheck disable=SC2034 # read by the caller
	if ((quiet)); then
		"$@" >"$log" 2>"$log.err" || boot_status=$?
	else
		step "$what" "$@" 2> >(tee "$log.err" >&2) | tee "$log" || boot_status=$?
	fi
}

# stage_judge LOG: the splats of the run whose output is LOG (and LOG.err), in judged_splats and
# judged_unknown (scripts/lib/splats.sh); each unknown one is printed.
stage_judge() {
	# shellcheck disable=SC2034 # read by the caller
	judged_splats=0 judged_unknown=0
	if dry_run; then
		echo "+ read -r splats unknown_splats < <($(shown judge_splats "$1" "$1.err"))"
		# shellcheck disable=SC2016,SC2034 # a dry run's stand-ins, read by the caller
		judged_splats='$splats' judged_unknown='$unknown_splats'
		return 0
	fi
	local judged
	judged=$(judge_splats "$1" "$1.err")
	# shellcheck disable=SC2034 # read by the caller
	read -r judged_splats judged_unknown <<<"$judged"
}

# stage_runs_line RUNS LOG FIELD...: the run whose output is LOG as one JSON line (its FIELDs, and
# the results its output holds) appended to the runs file RUNS; in runs_status, the run's status
# as the host reads it (its field status, 1 if a benchmark gave no result; 0 in a dry run), from
# that one reading of LOG: the runs file is not read again for it.
stage_runs_line() {
	local runs=$1 log=$2
	shift 2
	# shellcheck disable=SC2034 # read by the caller
	runs_status=0
	if dry_run; then
		echo "+ status=\$($(shown python3 "$LAB_ROOT/scripts/readout.py" benchout run -a "$runs" "$log" "$@"))"
		return 0
	fi
	mkdir -p "$(dirname -- "$runs")"
	# shellcheck disable=SC2034 # read by the caller
	runs_status=$(python3 "$LAB_ROOT/scripts/readout.py" benchout run -a "$runs" "$log" "$@") ||
		die "the results of the run cannot be read (its output: $log)"
}

# lab_record ARG...: the one recording helper of the lab's measuring commands. With RECORD=1 it
# writes what the command measured as a record, records/<base>/<kind>/<id>/ (scripts/readout.py records
# write ARG...), and names it; without, it does nothing. A dry run prints the command.
lab_record() {
	local record
	[[ ${RECORD:-0} == 1 ]] || return 0
	if dry_run; then
		echo "+ $(shown "$LAB_ROOT/scripts/readout.py" records write "$@")"
		return 0
	fi
	record=$("$LAB_ROOT/scripts/readout.py" records write "$@") || die "the record was not written"
	note "recorded in $record (git add it)"
}
