#!/bin/sh
# GPU tests of the streams lesson (PCIe copies overlapped with compute): every stage right, bit for
# bit against the serial one, at the default size and at odd ones (n prime to every chunk count; n =
# 37, where the last chunks of the pipeline are empty and their copies dropped); each stage's copies
# move 4n bytes each way and its run carries the kernel time and the bound; in the pipelined stages the
# measured steps show a copy and a kernel on different streams whose spans intersect; no claim of the
# text contradicted at the default size. How close the best stage comes to its bound is printed
# (INFO), not tested. Without a GPU: one SKIP line. STREAMS_OUT=DIR keeps the JSON results there.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "streams gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "streams gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "streams gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=${STREAMS_OUT:-$(mktemp -d)}
[ -z "${STREAMS_OUT:-}" ] && trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"

run() { name=$1; shift; $B bench "$@" --timeout 60 --json >"$tmp/$name.json" 2>"$tmp/$name.err"; }
run default streams --reps 5
run odd streams --set n=1000003 --set iters=7 --reps 3 --no-counters
run tiny streams --set n=37 --set iters=3 --reps 3 --no-counters

python3 - "$tmp" <<'PY' || fail "streams: the results could not be read"
import json, os, sys
tmp = sys.argv[1]
stages = ["serial", "pinned", "two_streams", "pipeline", "breadth_first"]

def overlap(steps):
    copies = [s for s in steps if s["kind"] == "copy"]
    kernels = [s for s in steps if s["kind"] == "launch"]
    return [(c, k) for c in copies for k in kernels
            if c["stream"] != k["stream"] and max(c["start_ms"], k["start_ms"]) < min(c["end_ms"], k["end_ms"])]

for name, label, n in (("default", "default size", 1 << 25), ("odd", "n = 1000003", 1000003), ("tiny", "n = 37", 37)):
    try:
        doc = json.load(open(os.path.join(tmp, name + ".json")))
        rs = {r["stage"]: r for r in doc["results"]}
    except Exception as e:
        print("FAIL streams (%s): no JSON results (%s): %s" % (label, e, open(os.path.join(tmp, name + ".err")).read()[-300:]))
        continue
    for s in stages:
        r = rs.get(s)
        what = "streams/%s (%s)" % (s, label)
        if r is None:
            print("FAIL %s: no result" % what); continue
        if r["status"] != "ok" or not r["checked"] or not r["passed"]:
            print("FAIL %s: %s, checked %s, passed %s, %s bad from %s: %s" % (what, r["status"], r["checked"], r["passed"],
                  r["bad_count"], r["first_bad"], r["message"]))
            continue
        print("PASS %s: right, %.3f ms" % (what, r["ms_median"]))
        if r["h2d_bytes"] == 4 * n and r["d2h_bytes"] == 4 * n and r["kernel_ms"] > 0 and r["bound_ms"] >= r["kernel_ms"]:
            print("PASS %s: copies 4n bytes each way; kernels %.3f ms, bound %.3f ms" % (what, r["kernel_ms"], r["bound_ms"]))
        else:
            print("FAIL %s: h2d_bytes %s, d2h_bytes %s (want %d each), kernel_ms %s, bound_ms %s" % (what, r["h2d_bytes"],
                  r["d2h_bytes"], 4 * n, r["kernel_ms"], r["bound_ms"]))
        for c in (r.get("claims", []) if name == "default" else []):
            if c["state"] == "contradicted":
                print("FAIL %s: claim %s contradicted (%s)" % (what, c["expect"], c["values"]))
        if s in ("pipeline", "breadth_first") and name != "tiny":
            steps = r.get("steps", [])
            hit = overlap(steps)
            if hit:
                c, k = hit[0]
                print("PASS %s: copy %s (stream %d, %.3f-%.3f ms) overlaps a kernel (stream %d, %.3f-%.3f ms); %d such pairs" % (
                      what, c["entry"], c["stream"], c["start_ms"], c["end_ms"], k["stream"], k["start_ms"], k["end_ms"], len(hit)))
            else:
                print("FAIL %s: no copy and kernel on different streams overlap: %s" % (what,
                      [(x["kind"], x["stream"], round(x["start_ms"], 3), round(x["end_ms"], 3)) for x in steps][:12]))
    if name == "default":
        ok = [(rs[s]["ms_median"], s) for s in stages if s in rs and rs[s]["status"] == "ok" and rs[s]["bound_ms"] > 0]
        if ok:
            t, s = min(ok)
            print("INFO streams: best stage %s %.3f ms, its bound %.3f ms: %.3fx the bound" % (s, t, rs[s]["bound_ms"], t / rs[s]["bound_ms"]))
PY
