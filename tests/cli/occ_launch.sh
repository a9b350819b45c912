#!/bin/sh
# A stage sized by the occupancy API (occ_block, occ_min_grid) is planned in the parent: once its kernel
# is compiled, cudaOccupancyMaxPotentialBlockSize's answer is computed on the host from the kernel's
# registers and the device's limits (cuda_occupancy.h), and the worker gets the finished plan. For the
# launch lesson's poly kernel (44 registers on sm_90, 132 SMs) that is block 640 and grid 264, as the
# lesson says the runtime answers on an H100. No GPU needed (tests/fake_worker.c through CUDACLIMB_WORKER).
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "occ launch: the fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
CUDACLIMB_WORKER=$tmp/fake CC_FAKE=echo $B run launch/api --reps 3 --no-counters --json >"$tmp/r.json" 2>"$tmp/r.err"
python3 - "$tmp/r.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
except Exception as e:
    print("FAIL occ launch: no JSON (%s)" % e); sys.exit()
ok = r["regs"] != 44 or (r["grid"] == "264,1,1" and r["block"] == "640,1,1")
print("%s occ launch: the plan has the occupancy API's launch (grid %s, block %s, %d registers)" % ("PASS" if ok else "FAIL", r["grid"], r["block"], r["regs"]))
ok = r["regs"] != 44 or r["message"].startswith("plan ") and " poly 264,1,1/640,1,1;" in r["message"]
print("%s occ launch: the worker got that launch in the plan (%s)" % ("PASS" if ok else "FAIL", r["message"][:120]))
# 44 registers (sm_90): 40 warps per SM by registers, so two blocks of 20 warps, 62.5%.
ok = r["regs"] != 44 or (r["occ_blocks"] == 2 and abs(r["occ_theoretical"] - 0.625) < 1e-9 and r["occ_limiter"] == "registers")
print("%s occ launch: occupancy for that block (%d blocks, %.3f, %s)" % ("PASS" if ok else "FAIL", r["occ_blocks"], r["occ_theoretical"], r["occ_limiter"]))
if r["regs"] != 44:
    print("SKIP occ launch: this NVRTC gives poly %d registers, not the 44 the numbers above are for" % r["regs"])
PY
expect "occ launch: check plans the stage without a GPU" 0 "launch +api +ok" $B check --arch sm_90

# A stage whose first launch is a helper (conv2d/winograd transforms the filters first, with its own
# entry): the resources, launch and occupancy it reports are its own kernel's, the first launch of the
# stage's entry (conv2d_winograd, blocks of 32 x KY), not the helper's (blocks of 256).
CUDACLIMB_WORKER=$tmp/fake CC_FAKE=echo $B run conv2d/winograd --reps 3 --no-counters --json >"$tmp/w.json" 2>"$tmp/w.err"
python3 - "$tmp/w.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
except Exception as e:
    print("FAIL occ launch: conv2d/winograd gave no JSON (%s)" % e); sys.exit()
ok = r["block"] == "32,4,1" and r["regs"] > 64
print("%s occ launch: a stage that launches a helper first reports its own kernel (block %s, %d registers, occupancy %.3f)"
      % ("PASS" if ok else "FAIL", r["block"], r["regs"], r["occ_theoretical"]))
PY
