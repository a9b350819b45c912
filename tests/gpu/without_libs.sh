#!/bin/sh
# GPU test: cudaclimb on a machine without cuBLAS, cuDNN and NPP. With CUDACLIMB_WITHOUT=cublas,cudnn,npp
# the worker treats those libraries as not installed (src/worker/baseline.c; cuBLASLt goes with cuBLAS): every baseline and
# library step that needs one fails in place with a message naming the library, the worker says which
# library it could not load, and every stage of our own still runs and is checked, timed alone (its
# baseline cannot run beside it) and saying so. A lesson whose
# reference is the library (sgemm) still answers every stage, with the reason. Without a GPU: one SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "without-libraries gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "without-libraries gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "without-libraries gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() { name=$1; shift; CUDACLIMB_WITHOUT=cublas,cudnn,npp $B bench "$@" --reps 3 --no-counters --timeout 60 --json >"$tmp/$name.json" 2>"$tmp/$name.err"; }
run attention attention --set batch=1 --set heads=2 --set seq=512
run stencil stencil --set width=1000 --set height=777
run pgemm precision_gemm --set m=512 --set n=512 --set k=512
run sgemm sgemm --set m=256 --set n=256 --set k=256
python3 - "$tmp" <<'PY' || fail "without libraries: the results could not be read"
import json, os, sys
tmp = sys.argv[1]
# lesson -> (stages that need a withheld library, what the worker must say on stderr)
cases = {"attention": ({"cublas", "baseline"}, ["cuDNN not found (withheld", "cuBLAS not found (withheld"]),
         "stencil": ({"baseline"}, ["NPP not found (withheld"]),
         "pgemm": ({"baseline*"}, ["cuBLAS not found (withheld", "cuBLASLt not found (withheld"])}
# "baseline*": every baseline of the lesson (precision_gemm's are all cuBLAS or cuBLASLt calls)
def needs_lib(stage, needs):
    return stage in needs or ("baseline*" in needs and stage.startswith("baseline"))
for name, (needs, said) in cases.items():
    try:
        rs = json.load(open(os.path.join(tmp, name + ".json")))["results"]
    except Exception as e:
        print("FAIL without libraries (%s): no JSON results (%s): %s" % (name, e, open(os.path.join(tmp, name + ".err")).read()[-300:])); continue
    err = open(os.path.join(tmp, name + ".err")).read()
    for s in said:
        print("%s without libraries (%s): the worker says %r" % ("PASS" if s in err else "FAIL", name, s))
    for r in rs:
        what = "without libraries: %s/%s" % (name, r["stage"])
        if r["status"] == "unsupported":
            print("SKIP %s: %s" % (what, r["message"])); continue
        if needs_lib(r["stage"], needs):
            ok = r["status"] != "ok" and r["message"]
            print("%s %s fails in place: %s: %s" % ("PASS" if ok else "FAIL", what, r["status"], r["message"][:150]))
        else:
            # timed alone, and saying so, since the baseline it would be timed beside cannot run
            ok = r["status"] == "ok" and r["checked"] and r["passed"] and "timed alone" in r["message"] and not r.get("pair")
            print("%s %s runs without them: %s, checked %s, passed %s: %s" % ("PASS" if ok else "FAIL", what, r["status"], r["checked"],
                  r["passed"], r["message"][:120]))
try:
    rs = json.load(open(os.path.join(tmp, "sgemm.json")))["results"]
    bad = [r["stage"] for r in rs if not r["message"] and r["status"] != "ok"]
    print("%s without libraries: sgemm (its reference is cuBLAS) answers all %d stages and cuBLAS, each failure with its reason%s"
          % ("PASS" if len(rs) >= 10 and not bad else "FAIL", len(rs), (": silent " + ", ".join(bad)) if bad else ""))
except Exception as e:
    print("FAIL without libraries (sgemm): no JSON results (%s): %s" % (e, open(os.path.join(tmp, "sgemm.err")).read()[-300:]))
PY
