# Where a measuring command's results land, with or without RECORD=1: a run directory of its own
# in the cache, $RESULTS/<command>/<date>-<time>/ ($LAB_CACHE/<base>/results/), holding its runs
# file (the JSON line of each run), its logs and its table, with a link `latest` beside it to the
# newest. The command's last line names the directory (results_done). RECORD=1 also copies what it
# measured into records/ (lab_record, scripts/lib/pipeline.sh). A dry run (DRY_RUN=1) names the
# directory without making it. Source it through scripts/lib.sh.
# shellcheck shell=bash

# results_dir COMMAND [NAME]: a new directory $RESULTS/COMMAND/NAME (NAME: the date and time,
# YYYYmmdd-HHMMSS, with -2, -3, ... when taken), `latest` pointed at it; prints its path.
results_dir() {
	local command=$1 name=${2:-} dir n=1
	[[ $command =~ ^[a-z][a-z0-9-]*$ ]] || die "results_dir: '$command': expected a command's name (a-z, 0-9, -)"
	if [[ -n $name ]]; then
		[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || die "'$name': a results directory's name takes letters, digits, '.', '_' and '-'"
		dir=$RESULTS/$command/$name
	else
		name=$(date +%Y%m%d-%H%M%S)
		dir=$RESULTS/$command/$name
		while [[ -e $dir ]]; do
			n=$((n + 1))
			dir=$RESULTS/$command/$name-$n
		done
	fi
	if dry_run; then
		echo "$dir"
		return 0
	fi
	mkdir -p "$dir"
	ln -sfn "${dir##*/}" "$RESULTS/$command/latest"
	echo "$dir"
}

# results_done DIR: the last line of a measuring command: where its results are.
results_done() {
	if dry_run; then
		note "dry run: nothing was built, booted or run; the results would land in $1/"
		return 0
	fi
	note "results: $1/ (latest: $(dirname "$1")/latest)"
}
