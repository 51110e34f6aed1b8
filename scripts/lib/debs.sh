# Debian packages of another suite than the machine's, unpacked into the lab's cache and never
# installed (part of scripts/lib.sh: source that, not this). apt gets a private configuration a
# source line, $LAB_CACHE/apt/<hash of the line> (base.sh's): its own sources.list, lists and
# package cache, so the machine's apt sources and its installed packages are never touched.
# shellcheck shell=bash

# debs_apt_opts SOURCE: set apt_dir and apt_opts, apt's options for SOURCE's private configuration,
# and make its directories.
debs_apt_opts() {
	apt_dir=$LAB_CACHE/apt/$(sha1sum <<<"$1" | cut -c1-12)
	apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=$apt_dir/sources.list.d"
		-o "Dir::Etc::preferencesparts=$apt_dir/preferences.d" -o "Dir::Etc::preferences=$apt_dir/preferences"
		-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
		-o "APT::Sandbox::User=root")
	mkdir -p "$apt_dir"/{sources.list.d,preferences.d,lists/partial,cache/archives/partial}
	echo "deb $1" >"$apt_dir/sources.list"
}

# debs_unpack SOURCE DIR PACKAGE[=VERSION]...: the packages from SOURCE, unpacked with dpkg-deb
# into DIR (made anew; DIR/versions lists "package version" a line). apt verifies the suite's
# Release against the keyring of the source line and each .deb against the Release's hashes; a
# suite it cannot fetch or verify (E: or W: from apt-get update) stops here.
debs_unpack() {
	local source=$1 dir=$2 tmp p deb why
	shift 2
	need apt-get dpkg-deb
	debs_apt_opts "$source"
	tmp=$(mktemp -d "$dir.fetch.XXXXXX")
	apt-get "${apt_opts[@]}" -q update >"$tmp/update.log" 2>&1 || true
	if why=$(grep -m1 -E '^(E|W): ' "$tmp/update.log"); then
		rm -rf "$tmp"
		die "apt could not fetch '$source': ${why#?: }"
	fi
	if ! (cd "$tmp" && apt-get "${apt_opts[@]}" -q download "$@") >"$tmp/download.log" 2>&1; then
		why=$(grep -m1 -E '^(E|W): ' "$tmp/download.log")
		rm -rf "$tmp"
		die "apt-get download $* from '$source' failed: ${why#?: }"
	fi
	mkdir "$tmp/root"
	for p in "$@"; do
		deb=$(find "$tmp" -maxdepth 1 -name "${p%%=*}_*.deb" -print -quit)
		[[ -n $deb ]] || { rm -rf "$tmp"; die "apt-get download left no ${p%%=*}_*.deb"; }
		# shellcheck disable=SC2016 # dpkg-deb's fields, not the shell's
		dpkg-deb --show --showformat='${Package} ${Version}\n' "$deb" >>"$tmp/root/versions"
		dpkg-deb -x "$deb" "$tmp/root"
	done
	rm -rf "$dir"
	mv "$tmp/root" "$dir"
	rm -rf "$tmp"
}
