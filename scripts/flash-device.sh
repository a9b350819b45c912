#!/bin/sh
# The one device call behind the attention flash stage's numbers: the attention GPU tests (every stage
# at the default, seq 1000 and 777, dim 64), the flash and flash_wgmma stages benched with counters,
# and the flash stage's other tunables at the default size and at dim 64; a short table last.
# Usage (on a GPU box, from the repository root, after make): OUT=DIR sh scripts/flash-device.sh
B=${B:-build/cudaclimb}; export B
# without OUT, a fresh private folder (a fixed name in /tmp could be another user's, its files links)
o=${OUT:-$(mktemp -d /tmp/flash-device.XXXXXX)} || exit 1; mkdir -p "$o"; echo "flash-device: output in $o" >&2
timeout 300 env ATTENTION_OUT="$o/att" sh tests/gpu/attention.sh >"$o/tests.txt" 2>&1
timeout 100 $B bench attention --stage flash,flash_wgmma --timeout 100 --json >"$o/bench.json" 2>"$o/bench.err"
v() { name=$1; shift; timeout 60 $B run attention/flash "$@" --reps 5 --no-counters --timeout 50 --json >"$o/v_$name.json" 2>"$o/v_$name.err"; }
v n32 --set BLOCK_N=32
v d64 --set dim=64
v d64_n32 --set dim=64 --set BLOCK_N=32
v d64_m128 --set dim=64 --set BLOCK_M=128
v d64_m128_n32 --set dim=64 --set BLOCK_M=128 --set BLOCK_N=32
timeout 60 $B run attention/flash_wgmma --set dim=64 --reps 5 --no-counters --timeout 50 --json >"$o/v_wg_d64.json" 2>"$o/v_wg_d64.err"
grep -E '^(PASS|FAIL|SKIP|INFO)' "$o/tests.txt"
python3 - "$o" <<'PY'
import glob, json, os, sys
o = sys.argv[1]
keys = ("regs", "spill_stores", "bytes_ratio", "tensor_inst", "tensor_sass", "smem_wavefronts", "smem_conflict_pct",
        "achieved_occupancy", "theoretical_occupancy", "tensor_pct", "l2_hit_pct")
for f in [os.path.join(o, "att", "default.json"), os.path.join(o, "bench.json")] + sorted(glob.glob(os.path.join(o, "v_*.json"))):
    try:
        rs = json.load(open(f))["results"]
    except Exception as e:
        print(os.path.basename(f), "no results:", e); continue
    for r in rs:
        extra = " ".join("%s=%s" % (k, r[k]) for k in keys if k in r)
        print("%-14s %-12s %-8s %9.4f ms %7.1f TFLOP/s %s" % (os.path.basename(f), r.get("stage"), r.get("status"),
              r.get("ms_median") or -1, (r.get("gflops") or 0) / 1000, extra))
        for c in r.get("claims", []):
            print("    claim %s: %s %s" % (c.get("expect"), c.get("state"), c.get("values")))
PY
