#!/bin/sh
# GPU tests of the precision_gemm lesson: every stage right (against the FP64 stage, at its own
# tolerance) at the default size, at odd sizes (1001 x 999 x 1008: no multiple of any tile) and at a
# short k (64); the norm-wise errors in the order of the formats' significant bits (FP32 < TF32 = FP16
# < BF16 < FP8) and the same at every k; and two planted bugs that the checks must catch: the FP8
# epilogue without B's scales (off by a factor per column), and the FP32 kernel dropping the last
# value of k (off by one product per element: about 1/sqrt(k) norm-wise, caught only because the
# FP32 stage is checked at FP32's precision); the exercise's starter, fixed, passes. The INT8 stages
# (int8_dp4a, int8_mma, int8_wgmma) also at thin and odd sizes (1 x 257 x 16, 263 x 1 x 48, 7 x 13 x 48, 8191 x 131
# x 4096: m a prime; not 1 x 1, where the norm-wise error is one element's relative error, unbounded
# when that element is near 0, for any format), their errors equal (the same exact int32 sums and scales) and between BF16's and FP8's;
# int8_wgmma (tc.cuh with s8) also with CM=2 EPILOGUE=1 STREAMK=1 at the default and an odd size, and with EPI_SWZ=1, its error again dp4a's; the
# int8_dp4a exercise's starter (unsigned bytes) fails and its own kernel passes. The libraries: each tensor-core stage timed in pairs with its own (cuBLASLt in TF32, BF16, FP16, FP8 with per-tensor scales (unchecked: a speed yardstick) and INT8),
# each library right at its format's tolerance (at the odd size a shape the library declines is a
# SKIP with its reason), and cuBLASLt's INT8 (baseline.int8) run alone (checked once a stage names it:
# before the INT8 stages its inputs are zeros). The four tensor-core stages again as the cooperative kernel
# (PINGPONG=0 BN=256 STAGES=4: both consumer warpgroups on one tile, the default until 2026-11-29), at
# 4096^3 with the default (pingpong) run's errors; the pingpong kernel with CM=2 and C clipped, with
# BM=64 at the odd size, with 8 staging boxes, with direct stores and in Hilbert order (several tiles a
# CTA, so that the warpgroups take turns); and the cooperative kernel with CM=2 EPILOGUE=1
# STREAMK=1 (clusters, TMA stores of C, stream-K) at the default size, the odd size, split along k there
# (CLUSTERS=5), with TMA clipping C (n = 1004, also at CM=1 in Hilbert order) and smaller than a tile:
# each right, and with the default kernel's norm-wise error at the same size. The five tensor-core
# stages with BN=176 (cuBLASLt's tile width: 176 = 5 x 32 + 16, five boxes of the TMA epilogue and 16
# columns stored directly; 5 slots): pingpong at 4096^3 (the last tile column 48 wide) with the default
# run's errors (INT8: dp4a's to the bit), also with CM=2 and EPI_SWZ=1; with C's rows clipped inside those
# 16 columns (n = 1048), with direct stores (n % 4 != 0, and EPILOGUE=0); BN=160 with clusters, and
# BN=192 (cooperative only) with stream-K. The pingpong kernel with STREAMK=1 (the last round's tiles
# split along k, each part taken by whichever warpgroup's turn it is): at 4096^3 with the default run's
# errors (INT8: dp4a's to the bit), at the odd size split over 5 CTAs, with clusters and C clipped, with
# BM=64 and with BN=176. Without a GPU: one SKIP line. PGEMM_OUT=DIR keeps the JSON.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "precision_gemm gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "precision_gemm gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "precision_gemm gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=${PGEMM_OUT:-$(mktemp -d)}
[ -z "${PGEMM_OUT:-}" ] && trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"

mkdir -p "$tmp/bug" && cp -r lessons kernels "$tmp/bug/" &&
	sed -i 's/C\[(size_t)row \* n + col\] = scaled ? s \* bj\[e\] \* d/C[(size_t)row * n + col] = scaled ? s * d/' "$tmp/bug/kernels/precision_gemm/tc.cuh" &&
	sed -i 's/ra\[e\] = row0 + r < m \&\& k0 + c < k ?/ra[e] = row0 + r < m \&\& k0 + c < k - 1 ?/' "$tmp/bug/kernels/precision_gemm/simt.cuh"
grep -q 'scaled ? s \* d' "$tmp/bug/kernels/precision_gemm/tc.cuh" || fail "precision_gemm: the scale bug could not be planted in tc.cuh"
grep -q 'k0 + c < k - 1' "$tmp/bug/kernels/precision_gemm/simt.cuh" || fail "precision_gemm: the k bug could not be planted in simt.cuh"
# the planted k bug also changes the reference (fp64 uses simt.cuh): keep the reference right
cp kernels/precision_gemm/fp64.cu "$tmp/bug/kernels/precision_gemm/fp64.cu"
cp kernels/precision_gemm/simt.cuh "$tmp/bug/kernels/precision_gemm/simt_ref.cuh"
sed -i 's/#include "simt.cuh"/#include "simt_ref.cuh"/' "$tmp/bug/kernels/precision_gemm/fp64.cu"
sed -i 's/PRECISION_GEMM_SIMT_CUH/PRECISION_GEMM_SIMT_REF_CUH/g' "$tmp/bug/kernels/precision_gemm/simt_ref.cuh"

run() { name=$1; shift; $B bench "$@" --timeout 120 --json >"$tmp/$name.json" 2>"$tmp/$name.err"; }
run default precision_gemm --reps 5 --no-counters --seed 20261126
CUDACLIMB_BASELINE_LOG=1 $B run precision_gemm/baseline.int8 --reps 5 --no-counters --timeout 120 --json >"$tmp/int8.json" 2>"$tmp/int8.err"
run odd precision_gemm --set m=1001 --set n=999 --set k=1008 --reps 3 --no-counters
run k64 precision_gemm --set k=64 --reps 3 --no-counters
run i8row precision_gemm --stage int8_dp4a,int8_mma,int8_wgmma --set m=1 --set n=257 --set k=16 --reps 3 --no-counters
run i8col precision_gemm --stage int8_dp4a,int8_mma,int8_wgmma --set m=263 --set n=1 --set k=48 --reps 3 --no-counters
run i8small precision_gemm --stage int8_dp4a,int8_mma,int8_wgmma --set m=7 --set n=13 --set k=48 --reps 3 --no-counters
run i8prime precision_gemm --stage int8_dp4a,int8_mma,int8_wgmma --set m=8191 --set n=131 --set k=4096 --reps 3 --no-counters
# The tensor-core stages with the wgmma_cluster machinery on (clusters of 2 with B multicast, C through
# TMA stores, stream-K): at the default size (the last round split along k), at the odd size (n % 4 != 0:
# direct stores), split along k there too (CLUSTERS=5), with C's rows TMA-clipped (n = 1004) at CM 1 and
# 2, and smaller than one tile (m = 100: a cluster's second tile lies wholly below C); and with CM=1
# EPILOGUE=0 (the kernel before those settings, no longer the default) at an odd size.
TC=tf32,bf16,fp16,fp8
# The defaults are PINGPONG 1 (each consumer warpgroup a whole 128 x 128 tile, in turn);
# TCSET sets the cooperative kernel of before (PINGPONG 0, BN 256, 4 slots) with stream-K; the pingpong kernel
# with stream-K is tested further down (bnsk_pp*).
COOP="--set PINGPONG=0 --set BN=256 --set STAGES=4"
TCSET="$COOP --set CM=2 --set EPILOGUE=1 --set STREAMK=1"
run cl_default precision_gemm --stage $TC $TCSET --reps 3 --no-counters
run cl_plain_odd precision_gemm --stage $TC $COOP --set CM=1 --set EPILOGUE=0 --set m=1001 --set n=1004 --set k=1008 --reps 3 --no-counters
run cl_odd precision_gemm --stage $TC $TCSET --set m=1001 --set n=999 --set k=1008 --reps 3 --no-counters
run cl_odd_sk precision_gemm --stage $TC $TCSET --set CLUSTERS=5 --set m=1001 --set n=999 --set k=1008 --reps 3 --no-counters
run cl_clip_sk precision_gemm --stage $TC $TCSET --set CLUSTERS=5 --set m=1001 --set n=1004 --set k=1008 --reps 3 --no-counters
run cl_clip_cm1 precision_gemm --stage $TC $COOP --set CM=1 --set EPILOGUE=1 --set STREAMK=1 --set ORDER=1 --set CLUSTERS=7 --set m=1001 --set n=1004 --set k=1008 --reps 3 --no-counters
run cl_small precision_gemm --stage $TC $TCSET --set m=100 --set n=60 --set k=64 --reps 3 --no-counters
run cl_small_odd precision_gemm --stage $TC $TCSET --set m=37 --set n=45 --set k=64 --reps 3 --no-counters
# EPI_SWZ 1 (the epilogue's odd rows in another order, no bank conflicts; scripts/tc-epilogue-banks.py
# models its addresses): at the default size and with C's rows clipped and split along k
run cl_swz precision_gemm --stage $TC --set EPI_SWZ=1 --reps 3 --no-counters --seed 20261126
run cl_swz_clip precision_gemm --stage $TC $TCSET --set EPI_SWZ=1 --set CLUSTERS=5 --set m=1001 --set n=1004 --set k=1008 --reps 3 --no-counters
run i8cl_swz precision_gemm --stage int8_wgmma --set EPI_SWZ=1 --reps 3 --no-counters --seed 20261126
# PINGPONG 1 (the default) beside the cooperative kernel: that one at 4096^3 with the default run's inputs
# (each element's sum in the same k order: errors within 1e-6 of each other), pingpong with clusters of 2 and C's rows clipped,
# and with BM 64 (a 64 x 256 tile a warpgroup) at the odd size (direct stores).
run cl_coop precision_gemm --stage $TC $COOP --reps 3 --no-counters --seed 20261126
run cl_pp_cm2_clip precision_gemm --stage $TC --set CM=2 --set CLUSTERS=5 --set m=1001 --set n=1004 --set k=1008 --reps 3 --no-counters
run cl_pp_bm64_odd precision_gemm --stage $TC --set BM=64 --set BN=256 --set STAGES=4 --set CLUSTERS=5 --set m=1001 --set n=999 --set k=1008 --reps 3 --no-counters
# and with several tiles a CTA (so that both warpgroups take turns) along the paths the runs above leave
# out: 8 staging boxes over 4 a tile (the boxes' turn across tiles and halves), direct stores of C, and
# the Hilbert order with 2 slots
run cl_pp_boxes precision_gemm --stage $TC --set EPI_BOXES=8 --set STAGES=3 --reps 3 --no-counters
run cl_pp_direct precision_gemm --stage $TC --set EPILOGUE=0 --set CLUSTERS=5 --set m=1001 --set n=999 --set k=1008 --reps 3 --no-counters
run cl_pp_hilbert precision_gemm --stage $TC --set ORDER=1 --set STAGES=2 --set CLUSTERS=7 --set m=1001 --set n=1004 --set k=1008 --reps 3 --no-counters
# int8_wgmma with the machinery on: stream-K's parts are int32 sums added as integers, so the result (and
# its norm-wise error) is still the dp4a stage's to the bit, at 4096^3 (TMA stores) and at an odd size
# split along k (direct stores: n % 4 != 0; BN 128 there, which dp4a, run beside it, also takes).
run i8cl_default precision_gemm --stage int8_wgmma $TCSET --reps 3 --no-counters --seed 20261126
run i8cl_odd precision_gemm --stage int8_dp4a,int8_wgmma --set PINGPONG=0 --set BN=128 --set STAGES=4 --set CM=2 --set EPILOGUE=1 --set STREAMK=1 --set CLUSTERS=5 --set m=1001 --set n=999 --set k=1008 --reps 3 --no-counters
# BN 176 (and 160, 192): tiles of 176 columns (one m64n176 wgmma per 64 rows), 5 slots. At 4096^3 (24 tile
# columns, the last 48 wide: B's rows past n read as zeros, C's stores clipped, the scales not read past n)
# with the default run's inputs, CM 1 and CM 2 with EPI_SWZ 1; at 1001 x 1048 (1048 - 5 x 176 = 168: n
# falls inside the last tile's 16 directly stored columns, 160 .. 175) with clusters; with direct stores at
# n = 999 (n % 4 != 0) and EPILOGUE 0 at n = 1048; several tiles a CTA at the odd sizes (CLUSTERS), so that
# the warpgroups take turns. Then BN 160 (five whole boxes, no column stored directly) with clusters and
# EPI_SWZ, and BN 192, which only the cooperative kernel takes (PINGPONG 1 would spill), with clusters and
# stream-K.
TC5=$TC,int8_wgmma
BN176="--set BN=176 --set STAGES=5"
run bn176 precision_gemm --stage $TC5 $BN176 --reps 3 --no-counters --seed 20261126
run bn176_cm2_swz precision_gemm --stage $TC5 $BN176 --set CM=2 --set EPI_SWZ=1 --reps 3 --no-counters --seed 20261126
run bn176_clip precision_gemm --stage $TC5 $BN176 --set CM=2 --set CLUSTERS=5 --set m=1001 --set n=1048 --set k=1008 --reps 3 --no-counters
run bn176_direct precision_gemm --stage $TC5 $BN176 --set CLUSTERS=5 --set m=1001 --set n=999 --set k=1008 --reps 3 --no-counters
run bn176_e0 precision_gemm --stage $TC5 $BN176 --set EPILOGUE=0 --set CM=2 --set CLUSTERS=5 --set m=1001 --set n=1048 --set k=1008 --reps 3 --no-counters
run bn160_clip precision_gemm --stage $TC5 --set BN=160 --set STAGES=5 --set CM=2 --set EPI_SWZ=1 --set CLUSTERS=5 --set m=1001 --set n=1004 --set k=1008 --reps 3 --no-counters
run bn192_coop_sk precision_gemm --stage $TC5 --set PINGPONG=0 --set BN=192 --set STAGES=4 --set CM=2 --set STREAMK=1 --set CLUSTERS=5 --set m=1001 --set n=1004 --set k=1008 --reps 3 --no-counters
# PINGPONG 1 (the defaults) with STREAMK 1: the tiles of the last partial round cut along k, each part
# taken by whichever warpgroup's turn it is and the whole part (both 64-row halves) in the CTA's slot of
# the workspace. At 4096^3 with the default run's inputs (1024 tiles over the grid: 100 split; INT8's
# parts added as integers, so dp4a's error to the bit; the float stages' within 1% of the default run's),
# at the odd size split over 5 CTAs (direct stores), with clusters of 2 and C's rows TMA-clipped, with
# BM 64, and with BN 176 (16 columns stored directly) in Hilbert order.
PPSK="--set STREAMK=1"
run bnsk_pp precision_gemm --stage $TC5 $PPSK --reps 3 --no-counters --seed 20261126
run bnsk_pp_odd precision_gemm --stage $TC5 $PPSK --set CLUSTERS=5 --set m=1001 --set n=999 --set k=1008 --reps 3 --no-counters
run bnsk_pp_cm2_clip precision_gemm --stage $TC5 $PPSK --set CM=2 --set CLUSTERS=5 --set m=1001 --set n=1004 --set k=1008 --reps 3 --no-counters
run bnsk_pp_bm64 precision_gemm --stage $TC5 $PPSK --set BM=64 --set BN=256 --set STAGES=4 --set CLUSTERS=5 --set m=1001 --set n=1004 --set k=1008 --reps 3 --no-counters
run bnsk_pp_176 precision_gemm --stage $TC5 $PPSK $BN176 --set ORDER=0 --set CLUSTERS=7 --set m=1001 --set n=1048 --set k=1008 --reps 3 --no-counters
$B --lessons "$tmp/bug" bench precision_gemm --stage fp32,fp8 --set m=1001 --set n=999 --set k=1008 --reps 3 --no-counters \
	--timeout 120 --json >"$tmp/bug.json" 2>"$tmp/bug.err"

# The exercise is passable: its starter with the fix the hints lead to (FP32 sums with fmaf, the
# fragments loaded into registers first) passes.
python3 - kernels/precision_gemm/exercises/fp32.cu "$tmp/fixed.cu" <<'PY' || fail "precision_gemm: the exercise's fix could not be applied to the starter"
import sys
s = open(sys.argv[1]).read()
fixes = [("__half acc[TM][TN];", "float acc[TM][TN];"), ("acc[i][j] = __float2half(0.f);", "acc[i][j] = 0.f;"),
         ("C[(size_t)r * n + c] = __half2float(acc[i][j]);", "C[(size_t)r * n + c] = acc[i][j];"),
         ('''		for (int kk = 0; kk < KT; kk++)
			for (int i = 0; i < TM; i++)
				for (int j = 0; j < TN; j++) {
					const float p = sa[kk][ty * TM + i] * sb[kk][tx * TN + j];
					acc[i][j] = __float2half(__half2float(acc[i][j]) + p);
				}''', '''#pragma unroll
		for (int kk = 0; kk < KT; kk++) {
			float a[TM], b[TN];
#pragma unroll
			for (int i = 0; i < TM; i++) a[i] = sa[kk][ty * TM + i];
#pragma unroll
			for (int j = 0; j < TN; j++) b[j] = sb[kk][tx * TN + j];
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
		}''')]
for old, new in fixes:
    if old not in s:
        sys.exit("not in the starter: " + old[:60])
    s = s.replace(old, new, 1)
open(sys.argv[2], "w").write(s)
PY
CUDACLIMB_WORK=$tmp/work $B try precision_gemm/fp32 "$tmp/fixed.cu" --json --timeout 120 >"$tmp/try.json" 2>"$tmp/try.err"

python3 - "$tmp" <<'PY' || fail "precision_gemm: the results could not be read"
import json, os, sys
tmp = sys.argv[1]
# Each tensor-core stage's pair, as the lesson names it (cuBLASLt as PyTorch calls it; FP8's with per-tensor
# scales, _scaled_mm's default call), and the baselines the lesson leaves unchecked (check: false).
PAIRS = {"tf32": "baseline.tf32_lt", "bf16": "baseline.bf16_lt", "fp16": "baseline.fp16_lt", "fp8": "baseline.fp8_tensor"}
UNCHECKED = {"baseline.fp8_tensor"}
def load(name):
    try:
        return json.load(open(os.path.join(tmp, name + ".json")))["results"]
    except Exception as e:
        print("FAIL precision_gemm (%s): no JSON results (%s): %s" % (name, e, open(os.path.join(tmp, name + ".err")).read()[-300:]))
        return None
norms = {}
for name, label in (("default", "4096^3"), ("odd", "1001 x 999 x 1008"), ("k64", "4096 x 4096 x 64"),
                    ("i8row", "1 x 257 x 16"), ("i8col", "263 x 1 x 48"), ("i8small", "7 x 13 x 48"), ("i8prime", "8191 x 131 x 4096"),
                    ("cl_default", "4096^3, cooperative CM=2 EPILOGUE=1 STREAMK=1"), ("cl_odd", "1001 x 999 x 1008, cooperative CM=2 EPILOGUE=1 STREAMK=1"),
                    ("cl_odd_sk", "1001 x 999 x 1008, cooperative CM=2 EPILOGUE=1 STREAMK=1 CLUSTERS=5"),
                    ("cl_clip_sk", "1001 x 1004 x 1008, cooperative CM=2 EPILOGUE=1 STREAMK=1 CLUSTERS=5"),
                    ("cl_clip_cm1", "1001 x 1004 x 1008, cooperative CM=1 EPILOGUE=1 STREAMK=1 ORDER=1 CLUSTERS=7"),
                    ("cl_plain_odd", "1001 x 1004 x 1008, cooperative CM=1 EPILOGUE=0 (direct stores, no clusters)"),
                    ("cl_small", "100 x 60 x 64, cooperative CM=2 EPILOGUE=1 STREAMK=1"), ("cl_small_odd", "37 x 45 x 64, cooperative CM=2 EPILOGUE=1 STREAMK=1"),
                    ("i8cl_default", "4096^3, cooperative CM=2 EPILOGUE=1 STREAMK=1"), ("i8cl_odd", "1001 x 999 x 1008, cooperative BN=128 CM=2 EPILOGUE=1 STREAMK=1 CLUSTERS=5"),
                    ("cl_swz", "4096^3, EPI_SWZ=1"), ("cl_swz_clip", "1001 x 1004 x 1008, cooperative CM=2 EPILOGUE=1 STREAMK=1 CLUSTERS=5 EPI_SWZ=1"),
                    ("i8cl_swz", "4096^3, EPI_SWZ=1"), ("cl_coop", "4096^3, PINGPONG=0 BN=256 STAGES=4 (cooperative)"),
                    ("cl_pp_cm2_clip", "1001 x 1004 x 1008, PINGPONG=1 CM=2 CLUSTERS=5"),
                    ("cl_pp_bm64_odd", "1001 x 999 x 1008, PINGPONG=1 BM=64 BN=256 STAGES=4 CLUSTERS=5"),
                    ("cl_pp_boxes", "4096^3, PINGPONG=1 EPI_BOXES=8 STAGES=3"),
                    ("cl_pp_direct", "1001 x 999 x 1008, PINGPONG=1 EPILOGUE=0 CLUSTERS=5"),
                    ("cl_pp_hilbert", "1001 x 1004 x 1008, PINGPONG=1 ORDER=1 STAGES=2 CLUSTERS=7"),
                    ("bn176", "4096^3, BN=176 STAGES=5"), ("bn176_cm2_swz", "4096^3, BN=176 STAGES=5 CM=2 EPI_SWZ=1"),
                    ("bn176_clip", "1001 x 1048 x 1008, BN=176 STAGES=5 CM=2 CLUSTERS=5"),
                    ("bn176_direct", "1001 x 999 x 1008, BN=176 STAGES=5 CLUSTERS=5 (direct stores)"),
                    ("bn176_e0", "1001 x 1048 x 1008, BN=176 STAGES=5 EPILOGUE=0 CM=2 CLUSTERS=5"),
                    ("bn160_clip", "1001 x 1004 x 1008, BN=160 STAGES=5 CM=2 EPI_SWZ=1 CLUSTERS=5"),
                    ("bn192_coop_sk", "1001 x 1004 x 1008, PINGPONG=0 BN=192 STAGES=4 CM=2 STREAMK=1 CLUSTERS=5"),
                    ("bnsk_pp", "4096^3, PINGPONG=1 STREAMK=1"),
                    ("bnsk_pp_odd", "1001 x 999 x 1008, PINGPONG=1 STREAMK=1 CLUSTERS=5 (direct stores)"),
                    ("bnsk_pp_cm2_clip", "1001 x 1004 x 1008, PINGPONG=1 STREAMK=1 CM=2 CLUSTERS=5"),
                    ("bnsk_pp_bm64", "1001 x 1004 x 1008, PINGPONG=1 STREAMK=1 BM=64 BN=256 STAGES=4 CLUSTERS=5"),
                    ("bnsk_pp_176", "1001 x 1048 x 1008, PINGPONG=1 STREAMK=1 BN=176 STAGES=5 CLUSTERS=7")):
    rs = load(name)
    if rs is None:
        continue
    if name.startswith("cl_") or name.startswith("bn"):
        stages = set(r["stage"] for r in rs)
        for s in ("tf32", "bf16", "fp16", "fp8") + (("int8_wgmma",) if name.startswith("bn") else ()):
            if s not in stages:
                print("FAIL precision_gemm/%s (%s): no result" % (s, label))
    if name.startswith("i8"):
        i8want = ("int8_wgmma",) if name in ("i8cl_default", "i8cl_swz") else ("int8_dp4a", "int8_wgmma") if name == "i8cl_odd" else ("int8_dp4a", "int8_mma", "int8_wgmma")
        for s in i8want:
            if s not in set(r["stage"] for r in rs):
                print("FAIL precision_gemm/%s (%s): no result" % (s, label))
    want = len(i8want) if name.startswith("i8") else 4 if name.startswith("cl_") else 5 if name.startswith("bn") else 16
    if len(rs) < want:
        print("FAIL precision_gemm (%s): %d results, expected %s" % (label, len(rs), "the INT8 stages " + ", ".join(i8want) if name.startswith("i8") else "the four tensor-core stages" if want == 4 else "the five tensor-core stages" if want == 5 else "10 stages, cublasSgemm and 5 libraries in the stages' formats"))
    for r in rs:
        what = "precision_gemm/%s (%s)" % (r["stage"], label)
        if r["status"] == "unsupported":
            print("SKIP %s: %s" % (what, r["message"])); continue
        if r["stage"].startswith("baseline.") and name not in ("default", "cl_default") and r["status"] != "ok":
            print("SKIP %s: the library declines this shape: %s" % (what, r["message"][:200])); continue
        if r["stage"] in UNCHECKED:   # a speed yardstick the lesson does not check (check: false): it runs, unchecked
            ok = r["status"] == "ok" and not r["checked"] and r["ms_median"] > 0
            print("%s %s: %s, unchecked (a speed yardstick), %.4f ms" % ("PASS" if ok else "FAIL", what, r["status"], r["ms_median"]))
            continue
        if r["status"] != "ok" or not r["checked"] or not r["passed"]:
            print("FAIL %s: %s, checked %s, passed %s, norm-wise err %s, max abs err %s: %s" % (what, r["status"], r["checked"],
                  r["passed"], r.get("norm_rel_err"), r["max_abs_err"], r["message"]))
            continue
        print("PASS %s: %.4f ms, %.1f TFLOP/s, norm-wise err %.3g, max abs err %.3g" % (what, r["ms_median"], r["gflops"] / 1e3,
              r["norm_rel_err"], r["max_abs_err"]))
        if not name.startswith("cl_") and not name.startswith("bn"):
            norms.setdefault(name, {})[r["stage"]] = r["norm_rel_err"]
        if name in ("cl_default", "i8cl_default") and not r["stage"].startswith("baseline") and r.get("pair") == "baseline":
            print("INFO precision_gemm/%s (%s): %.3fx %s per pair" % (r["stage"], label, r["pair_ratio"], r.get("baseline", "?")))
rs = load("default") or []
got = {r["stage"]: r for r in rs}
for s in ("fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "tf32x3", "int8_dp4a", "int8_mma", "int8_wgmma"):
    r = got.get(s)
    if not r or r["status"] == "unsupported":
        continue
    want = PAIRS.get(s, "baseline.int8" if s.startswith("int8") else "baseline")
    ok = r.get("baseline") == want and r["pair"] == "baseline" and r["pair_ratio"] > 0
    print("%s precision_gemm/%s: timed in pairs with %s (%s): %.3fx its speed per pair" % ("PASS" if ok else "FAIL", s, want,
          r.get("baseline_title", "?")[:80], r["pair_ratio"]))
try:
    r = json.load(open(os.path.join(tmp, "int8.json")))["results"][0]
    err = open(os.path.join(tmp, "int8.err")).read()
    named = any(x.get("baseline") == "baseline.int8" for x in rs)
    if named:
        ok = r["status"] == "ok" and r["checked"] and r["passed"]
        print("%s precision_gemm/baseline.int8: %s, passed %s, norm-wise err %s, %.4f ms" % ("PASS" if ok else "FAIL", r["status"],
              r["passed"], r.get("norm_rel_err"), r["ms_median"]))
    else:
        ok = r["status"] in ("ok", "wrong")
        print("%s precision_gemm/baseline.int8 runs (no stage names it yet, its inputs are zeros: not judged on its check): %s, %.4f ms, %.1f TOP/s"
              % ("PASS" if ok else "FAIL", r["status"], r["ms_median"], r["gflops"] / 1e3))
    for line in err.splitlines():
        if "cuBLASLt" in line: print("INFO " + line)
except Exception as e:
    print("FAIL precision_gemm/baseline.int8: no result (%s): %s" % (e, open(os.path.join(tmp, "int8.err")).read()[-300:]))
for name, n in norms.items():
    if not all(s in n for s in ("fp32", "tf32", "bf16", "fp16", "fp8")):
        continue
    order = n["fp32"] < n["tf32"] < n["bf16"] < n["fp8"] and n["fp16"] < n["bf16"] and 0.5 < n["fp16"] / n["tf32"] < 2
    print("%s precision_gemm (%s): norm-wise errors in the order of the formats' bits: fp32 %.3g < tf32 %.3g ~ fp16 %.3g < bf16 %.3g < fp8 %.3g"
          % ("PASS" if order else "FAIL", name, n["fp32"], n["tf32"], n["fp16"], n["bf16"], n["fp8"]))
for name, n in norms.items():
    # 3xTF32: FP32's accuracy (or better: each k-tile is summed apart) from TF32 products, down to its
    # own floor of about 2^-22 (the dropped small.small product; measured 2.5e-7 at k = 64, where
    # FP32's short sums have 1.5e-7).
    if "tf32x3" in n and "fp32" in n and "tf32" in n:
        ok = n["tf32x3"] <= max(1.5 * n["fp32"], 2 ** -21) and n["tf32x3"] * 100 < n["tf32"]
        print("%s precision_gemm/tf32x3 (%s): norm-wise err %.3g, within 1.5x FP32's %.3g (or 2^-21) and under 1/100 of TF32's %.3g"
              % ("PASS" if ok else "FAIL", name, n["tf32x3"], n["fp32"], n["tf32"]))
for name, n in norms.items():
    # INT8: the stages sum the same integers exactly and scale them with the same FP32 multiplies, so
    # their results, and errors, are the same to the last bit; the error (the rounding to 1/127 of each
    # row's largest value, about 5.6e-3 for uniform inputs) lies between BF16's and FP8's.
    for other in ("int8_mma", "int8_wgmma"):
        if "int8_dp4a" in n and other in n:
            a, b = n["int8_dp4a"], n[other]
            print("%s precision_gemm int8 (%s): int8_dp4a and %s have the same norm-wise error (%.6g, %.6g)"
                  % ("PASS" if abs(a - b) <= 1e-9 * max(a, b) else "FAIL", name, other, a, b))
    if "int8_dp4a" in n and "int8_mma" in n:
        a = n["int8_dp4a"]
        if "bf16" in n and "fp8" in n:
            print("%s precision_gemm int8 (%s): norm-wise error bf16 %.3g < int8 %.3g < fp8 %.3g"
                  % ("PASS" if n["bf16"] < a < n["fp8"] else "FAIL", name, n["bf16"], a, n["fp8"]))
# The machinery changes only the order of the sums in the tiles split along k: the norm-wise error of
# each tensor-core stage is that of the default kernel at the same size, within 1%.
clnorms = {}
for name in ("cl_default", "cl_odd", "cl_odd_sk"):
    for r in load(name) or []:
        if r["status"] == "ok" and r["passed"] and not r["stage"].startswith("baseline"):
            clnorms.setdefault(name, {})[r["stage"]] = r["norm_rel_err"]
for name, ref in (("cl_default", "default"), ("cl_odd", "odd"), ("cl_odd_sk", "odd")):
    for s in ("tf32", "bf16", "fp16", "fp8"):
        a, b = clnorms.get(name, {}).get(s), norms.get(ref, {}).get(s)
        if a and b:
            print("%s precision_gemm/%s (%s): norm-wise error %.4g, the default kernel's %.4g (within 1%%)"
                  % ("PASS" if abs(a / b - 1) < 0.01 else "FAIL", s, name, a, b))
# int8_wgmma at 4096^3 with clusters, TMA stores and stream-K (its parts added as integers): the same
# inputs (both runs take --seed 20261126) and the same exact sums, so the dp4a stage's error in the default run to the bit.
# So does EPI_SWZ 1 (the same values, stored in another order); and its float stages' errors are the
# default run's to the bit (the same inputs, --seed 20261126, the same sums and scales).
cl = {}
try:
    cl = {r["stage"]: r for r in json.load(open(os.path.join(tmp, "cl_swz.json")))["results"]}
except Exception as e:
    print("FAIL precision_gemm (4096^3, EPI_SWZ=1): no JSON results (%s)" % e)
for s in ("tf32", "bf16", "fp16", "fp8"):
    a, b = (cl.get(s) or {}).get("norm_rel_err"), norms.get("default", {}).get(s)
    if a is not None and b:
        print("%s precision_gemm/%s (4096^3, EPI_SWZ=1): norm-wise error %.6g, the default run's %.6g (the same)"
              % ("PASS" if abs(a - b) <= 1e-9 * max(a, b) else "FAIL", s, a, b))
    else:
        print("FAIL precision_gemm/%s (4096^3, EPI_SWZ=1): no error to compare with the default run's" % s)
# The cooperative kernel (PINGPONG 0, BN 256) at the default run's inputs: each element's sum in the same
# k order (k-steps of 32 bytes, one accumulator), so the same norm-wise errors, within 1e-6 of each other.
coop = {}
try:
    coop = {r["stage"]: r for r in json.load(open(os.path.join(tmp, "cl_coop.json")))["results"]}
except Exception as e:
    print("FAIL precision_gemm (4096^3, PINGPONG=0): no JSON results (%s)" % e)
for s in ("tf32", "bf16", "fp16", "fp8"):
    a, b = (coop.get(s) or {}).get("norm_rel_err"), norms.get("default", {}).get(s)
    if a is not None and b:
        print("%s precision_gemm/%s (4096^3, PINGPONG=0 BN=256 STAGES=4): norm-wise error %.9g, the default (PINGPONG=1) run's %.9g (relative difference %.2g, at most 1e-6)"
              % ("PASS" if abs(a - b) <= 1e-6 * max(a, b) else "FAIL", s, a, b, abs(a - b) / max(a, b)))
    else:
        print("FAIL precision_gemm/%s (4096^3, PINGPONG=0): no error to compare with the default run's" % s)
# BN 176 at the default run's inputs: each element's sum in the same k order (k-steps of 32 bytes, one
# accumulator), so the float stages' errors within 1e-6 of the default (BN 128) run's, as the cooperative
# kernel's above, and int8_wgmma's exact sums the dp4a stage's error to the bit.
for name, label in (("bn176", "BN=176 STAGES=5"), ("bn176_cm2_swz", "BN=176 STAGES=5 CM=2 EPI_SWZ=1")):
    got176 = {}
    try:
        got176 = {r["stage"]: r for r in json.load(open(os.path.join(tmp, name + ".json")))["results"]}
    except Exception as e:
        print("FAIL precision_gemm (4096^3, %s): no JSON results (%s)" % (label, e))
    for s in ("tf32", "bf16", "fp16", "fp8", "int8_wgmma"):
        r = got176.get(s) or {}
        a = r.get("norm_rel_err") if r.get("status") == "ok" and r.get("passed") else None
        b = norms.get("default", {}).get("int8_dp4a" if s == "int8_wgmma" else s)
        tol = 1e-9 if s == "int8_wgmma" else 1e-6
        if a is not None and b:
            print("%s precision_gemm/%s (4096^3, %s): norm-wise error %.9g, the default run's %s %.9g (relative difference %.2g, at most %g)"
                  % ("PASS" if abs(a - b) <= tol * max(a, b) else "FAIL", s, label, a, "int8_dp4a" if s == "int8_wgmma" else s, b, abs(a - b) / max(a, b), tol))
        else:
            print("FAIL precision_gemm/%s (4096^3, %s): no error to compare with the default run's" % (s, label))
# PINGPONG 1 with STREAMK 1 at the default run's inputs: the split tiles' sums in another order (parts
# added), so the float stages' errors within 1% of the default run's, int8_wgmma's exact: dp4a's to the bit.
sk = {}
try:
    sk = {r["stage"]: r for r in json.load(open(os.path.join(tmp, "bnsk_pp.json")))["results"]}
except Exception as e:
    print("FAIL precision_gemm (4096^3, PINGPONG=1 STREAMK=1): no JSON results (%s)" % e)
for s in ("tf32", "bf16", "fp16", "fp8", "int8_wgmma"):
    r = sk.get(s) or {}
    a = r.get("norm_rel_err") if r.get("status") == "ok" and r.get("passed") else None
    b = norms.get("default", {}).get("int8_dp4a" if s == "int8_wgmma" else s)
    tol = 1e-9 if s == "int8_wgmma" else 1e-2
    if a is not None and b:
        print("%s precision_gemm/%s (4096^3, PINGPONG=1 STREAMK=1): norm-wise error %.9g, the default run's %s %.9g (relative difference %.2g, at most %g)"
              % ("PASS" if abs(a - b) <= tol * max(a, b) else "FAIL", s, a, "int8_dp4a" if s == "int8_wgmma" else s, b, abs(a - b) / max(a, b), tol))
    else:
        print("FAIL precision_gemm/%s (4096^3, PINGPONG=1 STREAMK=1): no error to compare with the default run's" % s)
for name, label in (("i8cl_default", "CM=2 EPILOGUE=1 STREAMK=1"), ("i8cl_swz", "EPI_SWZ=1")):
    a, b = norms.get(name, {}).get("int8_wgmma"), norms.get("default", {}).get("int8_dp4a")
    if a and b:
        print("%s precision_gemm/int8_wgmma (4096^3, %s): norm-wise error %.6g, int8_dp4a's at the defaults %.6g (the same)"
              % ("PASS" if abs(a - b) <= 1e-9 * max(a, b) else "FAIL", label, a, b))
if "default" in norms and "k64" in norms:
    for s in ("tf32", "bf16", "fp16", "fp8", "int8_dp4a", "int8_mma", "int8_wgmma"):
        a, b = norms["default"].get(s), norms["k64"].get(s)
        if a and b:
            print("%s precision_gemm/%s: norm-wise error %.3g at k = 4096 and %.3g at k = 64 (the same within 30%%)"
                  % ("PASS" if 0.7 < a / b < 1.3 else "FAIL", s, a, b))
try:
    v = json.load(open(os.path.join(tmp, "try.json")))["verdict"]
    print("%s precision_gemm exercise: the starter fixed (FP32 sums) gets %s: %s" % ("PASS" if v["kind"] == "passed" else "FAIL",
          v["kind"], v["headline"][:200]))
except Exception as e:
    print("FAIL precision_gemm exercise: no verdict (%s): %s" % (e, open(os.path.join(tmp, "try.err")).read()[-300:]))
rs = load("bug")
if rs is not None:
    got = {r["stage"]: r for r in rs}
    for s, what in (("fp32", "the FP32 kernel dropping the last k"), ("fp8", "the FP8 epilogue without B's scales")):
        r = got.get(s)
        if r is None:
            print("FAIL precision_gemm: no result for the planted bug in %s" % s)
        elif r["status"] == "unsupported":
            print("SKIP precision_gemm: planted bug (%s): %s" % (what, r["message"]))
        elif r["status"] == "wrong" and not r["passed"]:
            print("PASS precision_gemm: %s fails its check (norm-wise err %.3g): %s" % (what, r["norm_rel_err"], r["message"][:120]))
        else:
            print("FAIL precision_gemm: %s was not caught: %s, passed %s, norm-wise err %s" % (what, r["status"], r["passed"], r.get("norm_rel_err")))
PY

# The int8_dp4a exercise: the starter (unsigned bytes, the unsigned __dp4a) is wrong; the stage's kernel passes.
T=$tmp
try_exercise "precision_gemm int8_dp4a" precision_gemm/int8_dp4a kernels/precision_gemm 'wrong'
