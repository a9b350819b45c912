#!/bin/sh
# GPU test: every stage's claims (expect: in its lesson) checked on this GPU. `bench LESSON --json` for
# every lesson; one line per stage: PASS when its claims hold, FAIL for each contradicted claim (with
# the values it read and the sentence of the text it checks). A claim left unknown is a SKIP with its
# reason, except on compute capability 9.0 (H100, H200), where the counters the claims use all exist:
# there an unknown claim of a stage whose counters were read is a FAIL too.
# Without a GPU this prints one visible SKIP line.   CLAIMS_LESSONS="sgemm" checks only those;
# CLAIMS_KEEP=DIR keeps each lesson's JSON there (DIR/LESSON.json: a recording for --replay and tests).
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "gpu claims: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "gpu claims: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "gpu claims: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for l in ${CLAIMS_LESSONS:-$($B list 2>/dev/null | awk '{print $1}')}; do
	$B bench "$l" --timeout 60 --json >"$tmp/$l.json" 2>"$tmp/$l.err"
	python3 - "$tmp/$l.json" "$l" "$tmp/$l.err" <<'PY' || fail "claims $l: the results could not be read"
import json, sys
path, lesson, errf = sys.argv[1:4]
try:
    d = json.load(open(path))
except Exception as e:
    print("FAIL claims %s: bench gave no JSON (%s): %s" % (lesson, e, open(errf).read().strip()[:300])); sys.exit()
strict = d["device"].get("cc") == 90
for r in d["results"]:
    claims = r.get("claims", [])
    if r["stage"] == "baseline" or not claims: continue
    name = "claims %s/%s" % (lesson, r["stage"])
    if r["status"] != "ok":
        (print if r["status"] == "unsupported" else lambda s: print(s.replace("SKIP", "FAIL", 1)))(
            "SKIP %s: the stage did not run (%s: %s)" % (name, r["status"], r["message"]))
        continue
    counted = r["achieved_occupancy"] is not None and r["achieved_occupancy"] >= 0
    bad = False
    for c in claims:
        if c["state"] == "contradicted":
            bad = True
            print("FAIL %s: contradicted: %s (%s)%s" % (name, c["expect"], c["values"], " - the text: " + c["why"] if c["why"] else ""))
        elif c["state"] == "unknown":
            prev_missing = "previous stage" in c["missing"] or "baseline" in c["missing"] or c["missing"].startswith("not applied")
            if strict and counted and not prev_missing:
                bad = True
                print("FAIL %s: unknown on an H100/H200 with counters: %s (%s)" % (name, c["expect"], c["missing"]))
            else:
                print("SKIP %s: unknown: %s (%s)" % (name, c["expect"], c["missing"]))
    if not bad:
        held = sum(c["state"] == "holds" for c in claims)
        print("PASS %s: %d of %d claims hold" % (name, held, len(claims)))
PY
	if [ -n "${CLAIMS_KEEP:-}" ]; then mkdir -p "$CLAIMS_KEEP" && cp "$tmp/$l.json" "$CLAIMS_KEEP/$l.json"; fi
done
