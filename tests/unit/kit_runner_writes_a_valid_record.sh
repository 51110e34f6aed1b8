#!/bin/bash
# On a kit kernel, run-kit.sh runs every freelist row of the kit and writes one record of the lab:
# records/7.3/bench/<id>/ with meta.json and bench.log only, which `scripts/readout.py records check` of
# the lab that made the kit finds valid, which names the kernel (series, its commit, uname -r, the
# build id) and the producers, and whose log the lab reads as make bench's (scripts/readout.py benchout
# run: a result for every row). The fake kit's series kernel has the host's build id
# (/sys/kernel/notes, read here by Python, apart from run-kit.sh's reading in bash); a getconf of
# the test's says the machine has 5 online CPUs: the rows the lab runs at -p2 run at -p5, htab-mem's
# churn, which pairs producers, at -p4.
# Plant: run-kit.sh's meta.json without the lab's fields (schema, lab_commit, series, ...).
# Plant command: sed -i "/^\tsed '1d;\$d' \"\$kit\/record.json\"$/d" scripts/guest/run-kit.sh
# Plant: the all-CPU rows run at the registry's -p2 whatever the machine (a producer count of 2).
# Plant command: sed -i 's/|| a=-p$p$/|| a=-p2/' scripts/guest/run-kit.sh
# Plant: run-kit.sh's log without the lab's markers around each row (the lab reads no result).
# Plant command: sed -i 's/^\techo "lab-raw: bench $name $family" >>"$log"$/\t:/' scripts/guest/run-kit.sh
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# host_build_id: the build id of the running kernel, from its ELF notes
host_build_id() {
	python3 -c '
import struct
d = open("/sys/kernel/notes", "rb").read()
i = 0
while i + 12 <= len(d):
    namesz, descsz, kind = struct.unpack_from("<III", d, i)
    desc = i + 12 + (namesz + 3) // 4 * 4
    if kind == 3 and d[i + 12:i + 12 + namesz] == b"GNU\0":
        print(d[desc:desc + descsz].hex())
        break
    i = desc + (descsz + 3) // 4 * 4'
}

kit_runner_writes_a_valid_record() {
	local kit id out rec p=5
	id=$(host_build_id 2>/dev/null) || true
	[[ -n $id ]] || skip "the host's build id cannot be read (/sys/kernel/notes)"
	(($(id -u) == 0)) || skip "run-kit.sh runs as root"
	kit=$(fake_kit "$scratch/lab" aaaa0001 "$id")
	# a machine of 5 online CPUs
	mkdir -p "$scratch/bin"
	cat >"$scratch/bin/getconf" <<GETCONF
#!/bin/sh
if [ "\$1" = _NPROCESSORS_ONLN ]; then echo $p; else exec /usr/bin/getconf "\$@"; fi
GETCONF
	chmod +x "$scratch/bin/getconf"
	out=$(PATH=$scratch/bin:$PATH "$kit/run-kit.sh" -w1 -d1 -o "$scratch/lab/records" 2>&1)
	echo "$out"
	rec=$(sed -n 's/^record: \(.*\) (copy it into .*$/\1/p' <<<"$out")
	[[ $rec == "$scratch/lab/records/7.3/bench/"*-kit-series && -d $rec ]] || { echo "the last line names no record"; return 1; }
	[[ $(cd "$rec" && find . -type f | sort | xargs) == "./bench.log ./meta.json" ]] || { echo "the record holds other files"; return 1; }
	"$scratch/lab/scripts/readout.py" records check "$rec"
	"$scratch/lab/scripts/readout.py" records show "$rec"
	python3 - "$rec/meta.json" "$p" "$(uname -r)" "$id" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
want = {"kernel": "series", "producers": sys.argv[2], "release": sys.argv[3], "build_id": sys.argv[4]}
got = {k: m["params"][k] for k in want}
assert got == want, "params %s, expected %s" % (got, want)
assert m["status"] == 0 and m["kind"] == "bench" and m["series"], m
PY
	# every row ran, with the machine's producer count where the registry says -p2
	grep -q "^args: -w1 -d1 -a -p$p bpf-hashmap-full-update --mode race --churners 1 --period_ns 10000$" "$rec/bench.log" ||
		{ echo "full-update-race did not run at -p$p"; return 1; }
	grep -q "^args: -w1 -d1 -p$p bpf-hashmap-full-update --mode full$" "$rec/bench.log" ||
		{ echo "full-update-full-p2 did not run at -p$p"; return 1; }
	grep -q "^args: -w1 -d1 -p1 bpf-hashmap-full-update --mode existing$" "$rec/bench.log" ||
		{ echo "full-update-existing did not run at -p1"; return 1; }
	grep -q "^args: -w1 -d1 -p$((p - 1)) htab-mem --use-case add_del_on_diff_cpu --preallocated$" "$rec/bench.log" ||
		{ echo "htab-mem-churn-prealloc did not run at -p$((p - 1))"; return 1; }
	out=$(python3 "$scratch/lab/scripts/readout.py" benchout run "$rec/bench.log")
	python3 - "$out" <<'PY'
import json, sys
names = sorted(r["name"] for r in json.loads(sys.argv[1])["results"] if "." not in r["name"])
want = sorted("full-update-race full-update-race-closed full-update-full full-update-existing full-update-full-p2 "
              "htab-mem-churn-prealloc htab-mem-batch-prealloc htab-mem-overwrite-prealloc".split())
assert names == want, "results of %s, expected %s" % (names, want)
print("readout.py benchout run: a result for each of the %d rows" % len(names))
PY
}

run_test kit_runner_writes_a_valid_record "$@"
