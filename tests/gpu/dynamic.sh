#!/bin/sh
# GPU tests of the dynamic lesson: every stage right at the default size and at odd ones (1001
# sequences with long ones of 77777 extra elements; 63 short sequences and no long one; 12 sequences
# whose last is long); the theoretical occupancy of the -rdc stages, computed from nvJitLink's report
# of the linked kernels, equal to what the CUDA API says of the loaded code; the claims at the
# default size; the exercise: the stage's own kernel passes, the starter does not. Without a GPU: one
# SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "dynamic gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "dynamic gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "dynamic gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

run() { name=$1; shift; $B bench dynamic "$@" --timeout 60 --json >"$tmp/$name.json" 2>"$tmp/$name.err"; }
run default --reps ${DYN_REPS:-10}
run odd --set seqs=1001 --set short_len=13 --set long_len=77777 --reps 3 --no-counters
run shorts --set seqs=63 --set short_len=5 --set long_len=0 --reps 3 --no-counters
run twelve --set seqs=12 --set short_len=3 --set long_len=99999 --reps 3 --no-counters
[ -n "${DYN_KEEP:-}" ] && cp "$tmp"/*.json "$tmp"/*.err "$DYN_KEEP"/ 2>/dev/null

python3 - "$tmp" <<'PY'
import json, os, sys
tmp = sys.argv[1]
for name, label in (("default", "default size"), ("odd", "odd size (1001 sequences, 13, 77777)"),
                    ("shorts", "odd size (63 short sequences)"), ("twelve", "12 sequences, the last one long")):
    try:
        rs = json.load(open(os.path.join(tmp, name + ".json")))["results"]
    except Exception as e:
        print("FAIL dynamic %s: no JSON results (%s): %s" % (label, e, open(os.path.join(tmp, name + ".err")).read()[-400:]))
        continue
    if len(rs) != 4:
        print("FAIL dynamic %s: %d results, expected 4 stages" % (label, len(rs)))
    for r in rs:
        what = "dynamic/%s %s" % (r["stage"], label)
        if r["status"] != "ok" or not r["checked"] or not r["passed"]:
            print("FAIL %s: %s %s" % (what, r["status"], r["message"])); continue
        if r["occ_api_blocks"] >= 0 and r["occ_blocks"] != r["occ_api_blocks"]:
            print("FAIL %s: occupancy %d blocks/SM from the compile report, the CUDA API says %d" % (what, r["occ_blocks"], r["occ_api_blocks"])); continue
        print("PASS %s: checked, %.4f ms, %.0f GB/s, %d registers%s" % (what, r["ms_median"], r.get("gbps", -1), r["regs"],
              ", occupancy %d blocks/SM = API" % r["occ_blocks"] if r["occ_api_blocks"] >= 0 else ""))
        if label == "default size":
            for c in r.get("claims", []):
                if c["state"] == "contradicted":
                    print("FAIL %s: claim %s contradicted (%s)" % (what, c["expect"], c["values"]))
PY

# The exercise: the stage's own kernel passes, the starter does not.
export CUDACLIMB_WORK=$tmp/work
try() { $B try dynamic/dynamic_long "$1" --json --timeout 60 >"$tmp/try.json" 2>"$tmp/try.err"; python3 -c '
import json, sys
try:
    v = json.load(open(sys.argv[1]))["verdict"]; print(v["kind"], "|", v["headline"])
except Exception as e:
    print("none | no verdict:", e)' "$tmp/try.json"; }
v=$(try kernels/dynamic/dynamic_long.cu)
case $v in passed*) pass "dynamic exercise: the stage's own kernel passes ($v)" ;; *) fail "dynamic exercise: the stage's own kernel: $v $(tail -c 300 "$tmp/try.err")" ;; esac
v=$(try kernels/dynamic/exercises/dynamic_long.cu)
case $v in passed*|none*) fail "dynamic exercise: the starter: $v" ;; *) pass "dynamic exercise: the starter does not pass ($v)" ;; esac

