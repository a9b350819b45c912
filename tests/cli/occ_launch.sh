#!/bin/sh
# A stage sized on the GPU (occ_block, occ_min_grid: the occupancy API's answer, which only the worker
# can ask for) shows the grid and block the worker reports having launched, with the occupancy
# computed again for that block; without a GPU, check plans it with the fallbacks. No GPU needed
# (tests/fake_worker.c through CUDACLIMB_WORKER).
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc -I$cuda/include tests/fake_worker.c src/result.c src/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "occ launch: the fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
CUDACLIMB_WORKER=$tmp/fake CC_FAKE=ok CC_FAKE_LAUNCH=290,1,1/640,1,1 $B run launch/tail --reps 3 --no-counters --json >"$tmp/r.json" 2>"$tmp/r.err"
python3 - "$tmp/r.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
except Exception as e:
    print("FAIL occ launch: no JSON (%s)" % e); sys.exit()
ok = r["grid"] == "290,1,1" and r["block"] == "640,1,1"
print("%s occ launch: the result shows the worker's launch (grid %s, block %s)" % ("PASS" if ok else "FAIL", r["grid"], r["block"]))
# 44 registers (sm_90): 40 warps per SM by registers, so two blocks of 20 warps, 62.5%.
ok = r["occ_blocks"] == 2 and abs(r["occ_theoretical"] - 0.625) < 1e-9 and r["occ_limiter"] == "registers"
print("%s occ launch: occupancy recomputed for the worker's block (%d blocks, %.3f, %s)" % ("PASS" if ok else "FAIL", r["occ_blocks"], r["occ_theoretical"], r["occ_limiter"]))
PY
expect "occ launch: check plans the stage without a GPU (fallback block)" 0 "launch +api +ok" $B check --arch sm_90
