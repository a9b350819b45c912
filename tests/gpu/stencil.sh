#!/bin/sh
# GPU tests of the stencil lesson (a 2D Gaussian blur): every stage and the NPP baseline right at the
# default size, at odd sizes (a width that is no multiple of 32 and a height no multiple of a tile,
# radius 3; radius 8, the kernels' largest; an image smaller than the filter, where every tap is
# clamped); the tolerance tight enough to catch a kernel whose right edge is off by one column (a
# copy of the lesson tree with that bug must fail its check); no claim of the text contradicted at the
# default size. The speed of the best stage against NPP is printed (INFO), not tested: that is the
# benchmark's business. Without a GPU: one SKIP line; without NPP the baseline is a SKIP with the reason.
# STENCIL_OUT=DIR keeps the JSON results there.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "stencil gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "stencil gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "stencil gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=${STENCIL_OUT:-$(mktemp -d)}
[ -z "${STENCIL_OUT:-}" ] && trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"

# The edge bug: the row pass clamps to width - 2, so the last column's right-hand taps read the pixel
# before it.
mkdir -p "$tmp/bug" && cp -r lessons kernels "$tmp/bug/" &&
	sed -i 's/row + clampi(x + dx, 0, width - 1)/row + clampi(x + dx, 0, width - 2)/' "$tmp/bug/kernels/stencil/separable.cu"
grep -q 'width - 2' "$tmp/bug/kernels/stencil/separable.cu" || fail "stencil: the edge bug could not be planted in separable.cu"

run() { name=$1; shift; CUDACLIMB_BASELINE_LOG=1 $B bench "$@" --timeout 60 --json >"$tmp/$name.json" 2>"$tmp/$name.err"; }
run default stencil --reps 5
run odd stencil --set width=1001 --set height=777 --set R=3 --set sigma=1.3 --reps 3 --no-counters
run r8 stencil --set width=333 --set height=517 --set R=8 --set sigma=5 --reps 3 --no-counters
run tiny stencil --set width=7 --set height=5 --set R=8 --set sigma=3 --reps 3 --no-counters
CUDACLIMB_BASELINE_LOG=1 $B --lessons "$tmp/bug" run stencil/separable --set width=1001 --set height=777 --reps 3 --no-counters \
	--timeout 60 --json >"$tmp/bug.json" 2>"$tmp/bug.err"

python3 - "$tmp" <<'PY' || fail "stencil: the results could not be read"
import json, os, sys
tmp = sys.argv[1]

def load(name):
    try:
        return {r["stage"]: r for r in json.load(open(os.path.join(tmp, name + ".json")))["results"]}
    except Exception as e:
        print("FAIL stencil (%s): no JSON results (%s): %s" % (name, e, open(os.path.join(tmp, name + ".err")).read()[-300:]))
        return None

def err(name):
    return open(os.path.join(tmp, name + ".err")).read()

stages = ["naive", "shared", "constant", "separable", "texture", "fused"]
for name, label in (("default", "default size, 8192 x 8192, R = 4"), ("odd", "1001 x 777, R = 3"),
                    ("r8", "333 x 517, R = 8"), ("tiny", "7 x 5, R = 8")):
    rs = load(name)
    if rs is None:
        continue
    for s in stages + ["baseline"]:
        r = rs.get(s)
        what = "stencil/%s (%s)" % (s, label)
        if r is None:
            print("FAIL %s: no result" % what); continue
        if s == "baseline" and r["status"] != "ok" and "NPP" in err(name) and "not found" in err(name):
            print("SKIP %s: NPP is not installed here" % what); continue
        if r["status"] != "ok" or not r["checked"] or not r["passed"]:
            print("FAIL %s: %s, checked %s, passed %s, %s bad from %s, max rel err %s: %s" % (what, r["status"], r["checked"],
                  r["passed"], r["bad_count"], r["first_bad"], r["max_rel_err"], r["message"]))
        else:
            print("PASS %s: right, max rel err %.3g, %.4f ms" % (what, r["max_rel_err"], r["ms_median"]))
        for c in (r.get("claims", []) if name == "default" else []):
            if c["state"] == "contradicted":
                print("FAIL %s: claim %s contradicted (%s)" % (what, c["expect"], c["values"]))
    if name == "default":
        b = rs.get("baseline")
        best = min((rs[s]["ms_median"], s) for s in stages if s in rs and rs[s]["status"] == "ok")
        if b and b["status"] == "ok":
            print("INFO stencil: best stage %s %.4f ms, NPP %.4f ms: %.2fx NPP's speed" % (best[1], best[0], b["ms_median"],
                  b["ms_median"] / best[0]))

try:
    bug = json.load(open(os.path.join(tmp, "bug.json")))["results"][0]
    if bug["status"] == "wrong" and bug["checked"] and not bug["passed"]:
        print("PASS stencil: the tolerance catches a right edge clamped one column short (%s bad, max rel err %.3g)" % (
              bug["bad_count"], bug["max_rel_err"]))
    else:
        print("FAIL stencil: the edge bug was not caught: %s, checked %s, passed %s: %s" % (bug["status"], bug["checked"],
              bug["passed"], bug["message"]))
except Exception as e:
    print("FAIL stencil (edge bug): no JSON result (%s): %s" % (e, err("bug")[-300:]))
PY
