#!/bin/sh
# A GPU newer than assets/arch.yaml, for real (issue #36 item 5): with CUDACLIMB_UNKNOWN_ARCH=1 the engine
# and the worker ignore the GPU's entry, so every stage is compiled to PTX for the newest known compute_XX
# below it (compute_89 on an H100) and the driver JITs it; the limits come from the device's attributes
# and the peaks the table would give say "unknown (...)". Checked: `device` says where each number came
# from; the bandwidth, reduction and sgemm ladders run with every stage ok and correct, each compiled to
# compute_XX (not sm_XX), each with a theoretical occupancy (from the driver's register count and the
# attribute limits); the sgemm stages' FP32 peak is unknown. Without a GPU: one SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "unknown_arch gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "unknown_arch gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "unknown_arch gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export CUDACLIMB_UNKNOWN_ARCH=1

$B device >"$tmp/device.txt" 2>&1
grep -q "limits from: device attribute (cudaDeviceGetAttribute)" "$tmp/device.txt" && pass "unknown_arch: device: limits from device attributes" \
	|| { fail "unknown_arch: device: limits"; cat "$tmp/device.txt"; }
grep -Eq "^  FP32: .*unknown \(compute capability [0-9]+\.[0-9] is not in assets/arch.yaml: CUDACLIMB_UNKNOWN_ARCH\)" "$tmp/device.txt" \
	&& pass "unknown_arch: device: FP32 peak unknown, with the reason" || { fail "unknown_arch: device: FP32 peak"; cat "$tmp/device.txt"; }
grep -Eq "^  BF16 tensor cores: +unknown +\(unknown \(compute capability" "$tmp/device.txt" \
	&& pass "unknown_arch: device: tensor peak unknown, not guessed" || fail "unknown_arch: device: tensor peak"
grep -Eq "DRAM bandwidth, copy: +[1-9][0-9.]* GB/s" "$tmp/device.txt" && pass "unknown_arch: device: bandwidths still measured" || fail "unknown_arch: device: bandwidth"

for l in bandwidth reduction sgemm; do
	timeout 900 $B bench $l --json >"$tmp/$l.json" 2>"$tmp/$l.err"
	python3 - "$tmp/$l.json" "$l" <<'PY'
import json, sys
path, lesson = sys.argv[1], sys.argv[2]
try:
    doc = json.load(open(path))
except Exception as e:
    print(f"FAIL unknown_arch: {lesson}: no JSON ({e})"); sys.exit(0)
stages = [r for r in doc["results"] if r["stage"] != "baseline"]
if not stages:
    print(f"FAIL unknown_arch: {lesson}: no stages ran"); sys.exit(0)
for r in stages:
    name = f"unknown_arch: {lesson}/{r['stage']}"
    if r["status"] != "ok" or not r.get("passed"):
        print(f"FAIL {name}: status {r['status']}, passed {r.get('passed')}: {r['message'][:200]}"); continue
    if not r["arch"].startswith("compute_"):
        print(f"FAIL {name}: compiled for {r['arch']}, not PTX (compute_XX)"); continue
    if r["occ_max_warps"] <= 0 or r["regs"] <= 0:
        print(f"FAIL {name}: no occupancy from the attribute limits ({r['occ_limiter']!r}, regs {r['regs']})"); continue
    print(f"PASS {name}: ok and correct, {r['arch']} JIT, occupancy {100*r['occ_theoretical']:.0f}% ({r['occ_limiter']})")
d = doc["device"]
if lesson == "sgemm":
    ok = d["fp32_gflops"] == 0 and d["fp32_src"].startswith("unknown (")
    print(("PASS" if ok else "FAIL") + f" unknown_arch: sgemm: FP32 peak unknown ({d['fp32_src']})")
PY
done
