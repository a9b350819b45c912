#!/bin/sh
# GPU tests of the record: and wait: steps (#47 item 3), on the streams lesson's race and event stages:
# the event stage right bit for bit against the serial stage, at the default size and at n = 37; its
# steps listed as record and wait, named y_ready; in the race stage the copy back (stream 2) ends before
# the kernel (stream 1) does, and in the event stage it starts only when the kernel has ended (what
# the texts say the timeline shows); their claims (time_vs_pinned, time_vs_race) not contradicted.
# The race stage's result is not compared (check: false): what it copies back is not tested here.
# Without a GPU: one SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "stream events gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "stream events gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "stream events gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
$B bench streams --stage serial,pinned,race,event --reps 5 --no-counters --timeout 60 --json >"$tmp/default.json" 2>"$tmp/default.err"
$B bench streams --stage serial,event --set n=37 --set iters=3 --reps 3 --no-counters --timeout 60 --json >"$tmp/tiny.json" 2>"$tmp/tiny.err"

python3 - "$tmp" <<'PY' || fail "stream events: the results could not be read"
import json, os, sys
tmp = sys.argv[1]

def load(name):
    try:
        return {r["stage"]: r for r in json.load(open(os.path.join(tmp, name + ".json")))["results"]}
    except Exception as e:
        print("FAIL stream events (%s): no JSON results (%s): %s" % (name, e, open(os.path.join(tmp, name + ".err")).read()[-300:]))
        return None

def step(r, kind, stream):
    s = [x for x in r.get("steps", []) if x["kind"] == kind and x["stream"] == stream]
    return s[0] if s else None

for name, label in (("default", "default size"), ("tiny", "n = 37")):
    rs = load(name)
    if rs is None: continue
    r = rs.get("event")
    what = "streams/event (%s)" % label
    if not r or r["status"] != "ok" or not r["checked"] or not r["passed"]:
        print("FAIL %s: %s" % (what, r and (r["status"], r["checked"], r["passed"], r["bad_count"], r["message"])))
    else:
        print("PASS %s: right (checked against serial), %.3f ms" % (what, r["ms_median"]))
    kinds = [(x["kind"], x["entry"], x["stream"]) for x in (r or {}).get("steps", [])]
    if ("record", "y_ready", 1) in kinds and ("wait", "y_ready", 2) in kinds:
        print("PASS %s: the steps list record y_ready on stream 1 and wait y_ready on stream 2" % what)
    else:
        print("FAIL %s: steps %s" % (what, kinds))
    if name != "default": continue
    k, c = step(r, "launch", 1), step(r, "copy", 2)
    if k and c and c["start_ms"] >= k["end_ms"] - 0.01:
        print("PASS %s: the copy back starts at %.3f ms, after the kernel ends (%.3f ms)" % (what, c["start_ms"], k["end_ms"]))
    else:
        print("FAIL %s: the copy back does not wait for the kernel: %s %s" % (what, c, k))
    race = rs.get("race")
    if not race or race["status"] != "ok":
        print("FAIL streams/race: %s" % (race and (race["status"], race["message"])))
        continue
    k, c = step(race, "launch", 1), step(race, "copy", 2)
    if k and c and c["end_ms"] < k["end_ms"]:
        print("PASS streams/race: the copy back (stream 2, %.3f-%.3f ms) ends before the kernel (stream 1, %.3f-%.3f ms)" % (
              c["start_ms"], c["end_ms"], k["start_ms"], k["end_ms"]))
    else:
        print("FAIL streams/race: no race seen in the steps: copy %s kernel %s" % (c, k))
    for s in ("race", "event"):
        for cl in rs[s].get("claims", []):
            if cl["state"] == "contradicted":
                print("FAIL streams/%s: claim %s contradicted (%s)" % (s, cl["expect"], cl["values"]))
            elif cl["state"] == "holds":
                print("PASS streams/%s: claim %s holds (%s)" % (s, cl["expect"], cl["values"]))
            else:
                print("SKIP streams/%s: claim %s unknown (%s)" % (s, cl["expect"], cl["missing"]))
PY
