#!/bin/sh
# GPU tests of the fusion and softmax lessons: every stage right at the default size and at odd ones
# (for fusion one with hw not a multiple of 4, one with it; for softmax a row length not a multiple
# of 4, one that is), the cuDNN baselines right too (fusion's: the fused call,
# cudnnConvolutionBiasActivationForward, and the named baseline.three_calls, the chain of three calls,
# both run by the bench at every size), and the movements the texts rely on: the DRAM bytes falling as
# kernels fuse (about 3x, 2x, then 1x the model's), the fused kernels faster than the cuDNN chain, and
# each stage paired with its own baseline (separate with the three calls, the rest with the fused
# call). Without a GPU: one SKIP line; without cuDNN the baselines are a SKIP with the reason.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "fusion and softmax gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "fusion and softmax gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "fusion and softmax gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT


run() { name=$1; shift; CUDACLIMB_BASELINE_LOG=1 $B bench "$@" --timeout 60 --json >"$tmp/$name.json" 2>"$tmp/$name.err"; }
run fusion fusion --reps 5
run fusion-odd fusion --set n=3 --set c=5 --set k=7 --set h=37 --set w=29 --reps 3 --no-counters
run fusion-odd4 fusion --set n=5 --set c=3 --set k=9 --set h=20 --set w=30 --reps 3 --no-counters
run softmax softmax --reps 5
run softmax-odd softmax --set rows=4681 --set cols=777 --reps 3 --no-counters
run softmax-odd4 softmax --set rows=1001 --set cols=200 --reps 3 --no-counters

python3 - "$tmp" <<'PY'
import json, os, sys
tmp = sys.argv[1]

def load(name):
    try:
        return {r["stage"]: r for r in json.load(open(os.path.join(tmp, name + ".json")))["results"]}
    except Exception as e:
        print("FAIL %s: no JSON results (%s): %s" % (name, e, open(os.path.join(tmp, name + ".err")).read()[-300:]))
        return None

def err(name):
    return open(os.path.join(tmp, name + ".err")).read()

def check(name, ok, detail):
    print("%s %s (%s)" % ("PASS" if ok else "FAIL", name, detail))

def results(name, label, rs):
    for s, r in rs.items():
        what = "%s/%s %s" % (name.split("-")[0], s, label)
        if s.startswith("baseline") and r["status"] != "ok" and "cuDNN not found" in err(name):
            print("SKIP %s: cuDNN is not installed here" % what); continue
        if r["status"] != "ok" or (r["checked"] and not r["passed"]):
            print("FAIL %s: %s %s" % (what, r["status"], r["message"]))
        else:
            print("PASS %s: %s, max rel err %.3g, %.4f ms" % (what, "checked" if r["checked"] else "ran", r["max_rel_err"], r["ms_median"]))
        # The texts' claims are about the lesson's own size and baseline: tests/gpu/claims.sh checks
        # them there; at the odd sizes launch overhead decides the times.
        for c in (r.get("claims", []) if label == "default size" else []):
            if c["state"] == "contradicted":
                print("FAIL %s: claim %s contradicted (%s)" % (what, c["expect"], c["values"]))

runs = {}
for name, label in (("fusion", "default size"), ("fusion-odd", "odd size (n=3 c=5 k=7 37x29)"),
                    ("fusion-odd4", "odd size (n=5 c=3 k=9 20x30)"), ("softmax", "default size"),
                    ("softmax-odd", "odd size (4681 x 777)"), ("softmax-odd4", "odd size (1001 x 200)")):
    runs[name] = load(name)
    if runs[name]: results(name, label, runs[name])

def ratio(r):
    return (r["dram_bytes_read"] + r["dram_bytes_write"]) / r["bytes"] if r["dram_bytes_read"] >= 0 and r["bytes"] > 0 else -1

f = runs["fusion"]
if f:
    b = [ratio(f[s]) for s in ("separate", "conv_bias", "fused", "fused_vec4")]
    if min(b) >= 0:
        check("fusion: DRAM bytes fall by a round trip of y per stage", b[0] >= 2.5 and 1.6 <= b[1] <= 2.4 and b[2] <= 1.15 and b[3] <= 1.15,
              "%.2f, %.2f, %.2f, %.2f x the model's bytes" % tuple(b))
    else:
        print("SKIP fusion counters: %s" % f["separate"]["counters_note"])
    t = {s: r["ms_median"] for s, r in f.items()}
    pairs = {s: f[s].get("baseline") for s in ("separate", "conv_bias", "fused", "fused_vec4")}
    check("fusion: each stage paired with its own baseline",
          pairs == {"separate": "baseline.three_calls", "conv_bias": "baseline", "fused": "baseline", "fused_vec4": "baseline"}
          and all(f[s]["pair"] == "baseline" for s in pairs if f[s]["status"] == "ok"), str(pairs))
    chain = f.get("baseline.three_calls")
    if chain and chain["status"] == "ok":
        best = min(t["fused"], t["fused_vec4"])
        check("fusion: the best fused stage at least as fast as the cuDNN chain", best <= t["baseline.three_calls"],
              "%.4f ms against %.4f ms, %.2fx" % (best, t["baseline.three_calls"], t["baseline.three_calls"] / best))
    if f["baseline"]["status"] == "ok":
        print("INFO fusion: cuDNN's fused call %.4f ms, its chain %.4f ms, fused_vec4 %.4f ms (%.3fx the fused call per pair) (%s)" % (
            t["baseline"], t.get("baseline.three_calls", -1), t["fused_vec4"], f["fused_vec4"]["pair_ratio"],
            "; ".join(l.split("worker: ")[-1] for l in err("fusion").splitlines() if "fused call with" in l or "Find:" in l)))
s = runs["softmax"]
if s:
    b = [ratio(s[x]) for x in ("three_pass", "online", "one_kernel", "warp_row")]
    if min(b) >= 0:
        check("softmax: DRAM bytes fall with each pass removed", b[0] >= 1.8 and 1.3 <= b[1] <= 1.7 and b[2] <= 1.15 and b[3] <= 1.15,
              "%.2f, %.2f, %.2f, %.2f x the model's bytes" % tuple(b))
    else:
        print("SKIP softmax counters: %s" % s["three_pass"]["counters_note"])
PY
