#!/bin/sh
# GPU test: every stage's claims (expect: in its lesson) checked on this GPU. `bench LESSON --json` for
# every lesson; one line per stage: PASS when its claims hold, FAIL for each contradicted claim (with
# the values it read and the sentence of the text it checks). A claim left unknown is a SKIP with its
# reason, except on compute capability 9.0 (H100, H200), where the counters the claims use all exist:
# there an unknown claim of a stage whose counters were read is a FAIL too.
# Every lesson is benched at its defaults and then in each of its cases (cases:, `bench --case NAME`),
# so that a claim judged only in a case (when: { case: NAME }) is judged; the lines name the case
# ("claims spmv/ell [case skewed]"). A stage that a case's settings refuse is a SKIP there, and a
# claim that none of the runs applied (not applied at the defaults nor in any case) is a FAIL on an
# H100/H200: no claim goes unjudged.
# Without a GPU this prints one visible SKIP line.   CLAIMS_LESSONS="sgemm" checks only those;
# CLAIMS_KEEP=DIR keeps each bench's JSON there (DIR/LESSON.json at the defaults, DIR/LESSON.CASE.json
# in a case: recordings for --replay and tests, named GPU-COMMIT-DATE-LESSON[.CASE].json in assets/recorded).
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "gpu claims: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "gpu claims: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "gpu claims: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for l in ${CLAIMS_LESSONS:-$($B list 2>/dev/null | awk '{print $1}')}; do
	cases=$($B list --json 2>/dev/null | python3 -c 'import json, sys
for x in json.load(sys.stdin)["lessons"]:
    if x["id"] == sys.argv[1]: print(" ".join(c["name"] for c in x.get("cases", [])))' "$l")
	for c in default $cases; do
	if [ "$c" = default ]; then f=$l; else f=$l.$c; fi
	$B bench "$l" --case "$c" --timeout 60 --json >"$tmp/$f.json" 2>"$tmp/$f.err"
	python3 - "$tmp/$f.json" "$l" "$tmp/$f.err" "$c" <<'PY' || fail "claims $l [case $c]: the results could not be read"
import json, sys
path, lesson, errf, case = sys.argv[1:5]
where = "" if case == "default" else " [case %s]" % case
try:
    d = json.load(open(path))
except Exception as e:
    print("FAIL claims %s%s: bench gave no JSON (%s): %s" % (lesson, where, e, open(errf).read().strip()[:300])); sys.exit()
strict = d["device"].get("cc") == 90
for r in d["results"]:
    claims = r.get("claims", [])
    if r["stage"] == "baseline" or not claims: continue
    name = "claims %s/%s%s" % (lesson, r["stage"], where)
    if r["status"] == "refused" and case != "default":   # a stage the case's settings do not fit
        print("SKIP %s: refused at the case's settings (%s)" % (name, r["message"][:200])); continue
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
	if [ -n "${CLAIMS_KEEP:-}" ]; then mkdir -p "$CLAIMS_KEEP" && cp "$tmp/$f.json" "$CLAIMS_KEEP/$f.json"; fi
	done
	# No claim unjudged: each claim applied (held or not) in at least one of the lesson's benches.
	python3 - "$l" "$tmp" $cases <<'PY' || fail "claims $l: the results could not be read"
import json, sys, os
lesson, tmp, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
judged, seen, strict = set(), {}, False
for c in ["default"] + cases:
    try: d = json.load(open(os.path.join(tmp, lesson + ("" if c == "default" else "." + c) + ".json")))
    except Exception: continue
    strict |= d["device"].get("cc") == 90
    for r in d["results"]:
        for c2 in r.get("claims", []):
            key = (r["stage"], c2["expect"])
            if c2["state"] in ("holds", "contradicted"): judged.add(key)
            elif key not in seen or "this GPU has" in c2["missing"]: seen[key] = c2["missing"]
left = [k for k in seen if k not in judged]
for stage, expect in left:
    gpu_only = "this GPU has" in seen[(stage, expect)]
    print("%s claims %s/%s: judged neither at the defaults nor in any case: %s (%s)" %
          ("SKIP" if gpu_only or not strict else "FAIL", lesson, stage, expect, seen[(stage, expect)]))
if not left: print("PASS claims %s: every claim judged at the defaults or in a case (%s)" % (lesson, ", ".join(["default"] + cases)))
PY
done
