#!/bin/sh
# GPU tests of the warps and launch lessons: every stage right at the default size and at an odd one,
# no claim of their texts contradicted, and the counter movements the texts rely on, rung by rung:
# warp efficiency from the divergent branch to the per-warp one, time falling with --use_fast_math,
# ILP and the power of two; the limiter of each launch, spills and 100% occupancy under the register
# cap, 1.1 waves against one, and the occupancy stage's block and grid equal to what
# cudaOccupancyMaxPotentialBlockSize answers in a process of its own. Without a GPU: one SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "warps and launch gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "warps and launch gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "warps and launch gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

$B bench warps --reps 5 --timeout 60 --json >"$tmp/warps.json" 2>"$tmp/warps.err"
$B bench warps --set n=30001 --set terms=1001 --set w=32 --reps 3 --no-counters --timeout 60 --json >"$tmp/warps-odd.json" 2>"$tmp/warps-odd.err"
$B bench launch --reps 5 --timeout 60 --json >"$tmp/launch.json" 2>"$tmp/launch.err"
$B bench launch --set n=9586981 --reps 3 --no-counters --timeout 60 --json >"$tmp/launch-odd.json" 2>"$tmp/launch-odd.err"

# The occupancy API's answer for the api stage's compiled kernel, asked by a program of our own.
cuda=${CUDA_HOME:-/usr/local/cuda}
cc=$($B device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cc"])')
api="none"
if $cuda/bin/nvcc -std=c++17 -arch=sm_$cc tests/gpu/occ_api.cu -o "$tmp/occ_api" >"$tmp/occ.log" 2>&1; then
	cubin=$(python3 -c 'import json,sys; print([r for r in json.load(open(sys.argv[1]))["results"] if r["stage"] == "api"][0]["cubin"])' "$tmp/launch.json" 2>/dev/null)
	api=$("$tmp/occ_api" "$cubin" poly 2>"$tmp/occ.err") || { fail "launch: occ_api on $cubin: $(cat "$tmp/occ.err")"; api="none"; }
else
	fail "launch: tests/gpu/occ_api.cu did not build"; head -20 "$tmp/occ.log"
fi

python3 - "$tmp" "$api" <<'PY' || fail "new lessons: the results could not be read"
import json, os, sys
tmp, api = sys.argv[1], sys.argv[2]

def load(name):
    try:
        return {r["stage"]: r for r in json.load(open(os.path.join(tmp, name)))["results"]}
    except Exception as e:
        print("FAIL %s: no JSON results (%s): %s" % (name, e, open(os.path.join(tmp, name.replace(".json", ".err"))).read()[-300:]))
        return None

def check(name, ok, detail):
    print("%s %s (%s)" % ("PASS" if ok else "FAIL", name, detail))

def results(lesson, label, rs):
    for s, r in rs.items():
        name = "%s/%s %s" % (lesson, s, label)
        if r["status"] != "ok" or (r["checked"] and not r["passed"]):
            print("FAIL %s: %s %s" % (name, r["status"], r["message"]))
        else:
            print("PASS %s: %s, max rel err %.3g, %.4f ms" % (name, "checked" if r["checked"] else "ran", r["max_rel_err"], r["ms_median"]))
        for c in r.get("claims", []):
            if c["state"] == "contradicted":
                print("FAIL %s: claim %s contradicted (%s)" % (name, c["expect"], c["values"]))

def counters(r):
    return r["warp_efficiency"] >= 0 or r["achieved_occupancy"] >= 0

w, wo, l, lo = load("warps.json"), load("warps-odd.json"), load("launch.json"), load("launch-odd.json")
for lesson, label, rs in (("warps", "default size", w), ("warps", "odd size (n=30001 terms=1001 w=32)", wo),
                          ("launch", "default size", l), ("launch", "odd size (n=9586981)", lo)):
    if rs: results(lesson, label, rs)

if w:
    t = {s: r["ms_median"] for s, r in w.items()}
    if counters(w["divergent"]):
        check("warps: warp efficiency rises from the divergent branch to the per-warp one",
              w["divergent"]["warp_efficiency"] < 20 and w["warp_uniform"]["warp_efficiency"] > 28,
              "%.1f -> %.1f threads per instruction" % (w["divergent"]["warp_efficiency"], w["warp_uniform"]["warp_efficiency"]))
        check("warps: the select keeps the warps whole", w["branchless"]["warp_efficiency"] > 28,
              "%.1f" % w["branchless"]["warp_efficiency"])
    else:
        print("SKIP warps counters: %s" % w["divergent"]["counters_note"])
    check("warps: the per-warp branch takes at most 0.7x the divergent time", t["warp_uniform"] <= 0.7 * t["divergent"],
          "%.3f -> %.3f ms" % (t["divergent"], t["warp_uniform"]))
    check("warps: --use_fast_math takes at most 0.75x the time", t["fastmath"] <= 0.75 * t["branchless"],
          "%.3f -> %.3f ms, max rel err %.3g -> %.3g" % (t["branchless"], t["fastmath"], w["branchless"]["max_rel_err"], w["fastmath"]["max_rel_err"]))
    check("warps: ILP partial sums take at most 0.75x the time", t["ilp"] <= 0.75 * t["fastmath"],
          "%.3f -> %.3f ms" % (t["fastmath"], t["ilp"]))
    check("warps: time falls with the power of two", t["pow2"] <= 0.9 * t["ilp"], "%.3f -> %.3f ms" % (t["ilp"], t["pow2"]))
    check("warps: the fast intrinsics stay within the tolerance", 0 <= w["fastmath"]["max_rel_err"] < 5e-4,
          "max rel err %.3g" % w["fastmath"]["max_rel_err"])

if l:
    t = {s: r["ms_median"] for s, r in l.items()}
    lim = {s: r["occ_limiter"] for s, r in l.items()}
    check("launch: 32-thread blocks are limited by blocks per SM", lim["tiny"].startswith("blocks") and abs(l["tiny"]["occ_theoretical"] - 0.5) < 1e-6,
          "%s, %.3f" % (lim["tiny"], l["tiny"]["occ_theoretical"]))
    check("launch: 256-thread blocks are limited by registers", lim["block256"] == "registers", lim["block256"])
    check("launch: the register cap spills and raises occupancy",
          l["regcap"]["spill_stores"] > 0 and l["regcap"]["occ_theoretical"] > l["block256"]["occ_theoretical"],
          "%d bytes spilled, %.3f -> %.3f" % (l["regcap"]["spill_stores"], l["block256"]["occ_theoretical"], l["regcap"]["occ_theoretical"]))
    check("launch: 48 KB of shared memory per block limits occupancy", lim["smem"] == "shared memory", lim["smem"])
    if counters(l["regcap"]):
        check("launch: achieved occupancy follows the theoretical one from block256 to regcap",
              l["regcap"]["achieved_occupancy"] > l["block256"]["achieved_occupancy"],
              "%.3f -> %.3f" % (l["block256"]["achieved_occupancy"], l["regcap"]["achieved_occupancy"]))
    else:
        print("SKIP launch counters: %s" % l["regcap"]["counters_note"])
    sm = json.load(open(os.path.join(tmp, "launch.json")))["device"]["sm_count"]
    def waves(r):
        return int(r["grid"].split(",")[0]) / (sm * r["occ_blocks"]) if r["occ_blocks"] > 0 else -1
    check("launch: the tail stage launches 1.1 waves, the api stage one", 1.05 <= waves(l["tail"]) <= 1.15 and abs(waves(l["api"]) - 1) < 0.01,
          "%.3f and %.3f waves" % (waves(l["tail"]), waves(l["api"])))
    check("launch: one whole wave takes at most 0.8x the time of 1.1 waves", t["api"] <= 0.8 * t["tail"],
          "%.3f -> %.3f ms" % (t["tail"], t["api"]))
    if api != "none":
        block, min_grid = (int(v) for v in api.split())
        for s in ("tail", "api"):
            check("launch: %s launches the block cudaOccupancyMaxPotentialBlockSize returns" % s,
                  int(l[s]["block"].split(",")[0]) == block, "block %s, the API says %d" % (l[s]["block"], block))
        check("launch: api's grid is the API's min grid (one wave)", int(l["api"]["grid"].split(",")[0]) == min_grid,
              "grid %s, the API says %d" % (l["api"]["grid"], min_grid))
        check("launch: the occupancy shown for api is the API's", l["api"]["occ_blocks"] * sm == min_grid,
              "%d blocks per SM x %d SMs, min grid %d" % (l["api"]["occ_blocks"], sm, min_grid))
PY
