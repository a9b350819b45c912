#!/bin/sh
# GPU tests of pdl: true (a programmatic dependent launch), on tests/fixtures/pdl: the pdl stage (the
# second kernel launched to overlap the first, waiting with griddepcontrol.wait for what it reads)
# right bit for bit against the plain two launches at the default size, at n = 37 and at n = 1, timed
# as well; its second step listed as a launch of consume. Without a GPU: one SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "pdl gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "pdl gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "pdl gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for n in default 37 1; do
	set_n=""; [ "$n" = default ] || set_n="--set n=$n"
	# shellcheck disable=SC2086
	$B --lessons tests/fixtures/pdl bench pdl $set_n --reps 20 --no-counters --timeout 60 --json >"$tmp/$n.json" 2>"$tmp/$n.err"
	python3 - "$tmp/$n.json" "$n" "$tmp/$n.err" <<'PY' || fail "pdl gpu tests (n $n): the results could not be read"
import json, sys
path, n, errf = sys.argv[1:4]
try:
    rs = {r["stage"]: r for r in json.load(open(path))["results"]}
except Exception as e:
    print("FAIL pdl (n %s): no JSON results (%s): %s" % (n, e, open(errf).read()[-300:])); sys.exit()
r = rs.get("pdl")
if not r or r["status"] != "ok" or not r.get("checked") or not r.get("passed"):
    print("FAIL pdl (n %s): the pdl stage is not ok and right: %s" % (n, r and (r["status"], r.get("checked"), r.get("passed"), r.get("message"))))
else:
    print("PASS pdl (n %s): the programmatic dependent launch is right bit for bit against the plain launches (%.4f ms, plain %.4f)"
          % (n, r["ms_median"], rs["plain"]["ms_median"]))
steps = [s for s in (r or {}).get("steps", []) if s.get("kind") == "launch"]
if [s.get("entry") for s in steps] == ["produce", "consume"]:
    print("PASS pdl (n %s): its steps are the launches of produce and consume" % n)
else:
    print("FAIL pdl (n %s): steps %s" % (n, [(s.get("kind"), s.get("entry")) for s in (r or {}).get("steps", [])]))
PY
done
