#!/bin/sh
# Replay over a real recording (tests/fixtures/recorded: bench --json on an H100): a run asked for with
# an expression finds the record made with its value (n=1<<26 is the recorded n=67108864), and what it
# shows is the record as it was made: the diagnosis, computed from those counters when they were
# recorded, comes back word for word (nothing is diagnosed again here), in the table and in --json.
. tests/lib.sh
R=tests/fixtures/recorded/h100-1707a90-bandwidth.json
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
expect "replay recorded: n=1<<26 finds the record of n=67108864" 0 "^strided +5\.3360 " $B --replay $R run bandwidth/strided --set 'n=1<<26'
expect "replay recorded: ... as n=67108864 does" 0 "^strided +5\.3360 " $B --replay $R run bandwidth/strided --set n=67108864
expect "replay recorded: ... and as 64 Mi written another way" 0 "^strided +5\.3360 " $B --replay $R run bandwidth/strided --set 'n=64 * 1024 * 1024'
expect "replay recorded: another value is not recorded" 3 "not in the replay file" $B --replay $R run bandwidth/strided --set 'n=1<<25'
# Both spellings give the same JSON record.
$B --replay $R run bandwidth/strided --set 'n=1<<26' --json >"$tmp/expr.json" 2>/dev/null
$B --replay $R run bandwidth/strided --set n=67108864 --json >"$tmp/plain.json" 2>/dev/null
$B --replay $R bench bandwidth --json >"$tmp/bench.json" 2>/dev/null
python3 - "$R" "$tmp/expr.json" "$tmp/plain.json" "$tmp/bench.json" <<'PY'
import json, sys
rec = {r["stage"]: r for r in json.load(open(sys.argv[1]))["results"]}
def results(path):
    try:
        return json.load(open(path))["results"]
    except Exception as e:
        print("FAIL replay recorded: no JSON from %s (%s)" % (path, e)); return []
e, p, b = results(sys.argv[2]), results(sys.argv[3]), results(sys.argv[4])
ok = len(e) == 1 and len(p) == 1 and e[0]["ms_median"] == p[0]["ms_median"] == rec["strided"]["ms_median"] and e[0]["settings"] == p[0]["settings"]
print("%s replay recorded: the expression and the number give the same record in --json" % ("PASS" if ok else "FAIL"))
ok = len(e) == 1 and e[0]["diagnosis"] == rec["strided"]["diagnosis"] and e[0]["diagnosis"].startswith("critical uncoalesced: The GPU moved 12.9 GB")
print("%s replay recorded: run --json keeps the recorded diagnosis word for word" % ("PASS" if ok else "FAIL"))
bad = [r["stage"] for r in b if r["stage"] in rec and r["diagnosis"] != rec[r["stage"]]["diagnosis"]]
ok = len(b) == len(rec) and not bad
print("%s replay recorded: bench --json keeps every stage's recorded diagnosis%s" % ("PASS" if ok else "FAIL", (" (not: %s)" % ", ".join(bad)) if bad else ""))
PY
expect "replay recorded: the table shows the recorded diagnosis" 0 "strided +critical uncoalesced: The GPU moved 12\.9 GB to and from DRAM, 16\.0x the 805 MB" $B --replay $R run bandwidth/strided --set 'n=1<<26'
expect "replay recorded: claims are checked against the recorded counters" 0 "holds +bytes_ratio >= 8 +bytes_ratio=16" $B --replay $R run bandwidth/strided --set 'n=1<<26'
# A recording made before a tunable existed (sgemm/warptile's FRAG and CLUSTER came later): the
# tunable at its default finds the record, named or not (the terminal interface names every tunable);
# any other value is not recorded.
S=tests/fixtures/recorded/h100-1707a90-sgemm.json
expect "replay recorded: a newer tunable at its default finds the older record" 0 "^warptile +2\.9388 " $B --replay $S run sgemm/warptile --set FRAG=0 --set CLUSTER=1
expect "replay recorded: ... and left out too" 0 "^warptile +2\.9388 " $B --replay $S run sgemm/warptile
expect "replay recorded: ... another value of it is not recorded" 3 "not in the replay file" $B --replay $S run sgemm/warptile --set FRAG=1
