#!/bin/sh
# GPU tests of fair timing (docs/how-it-works.md "How the times are taken"): a bench times each stage in alternating
# pairs with the baseline; every timed run reads the SM clock (NVML) while it runs, and FLOP per cycle
# per SM agrees with its GFLOP/s, its clock and the SM count; before every timed run the L2 is emptied
# by a read of twice its size after the outputs' poisoning (l2_flush 3), and the start event waits behind
# a launch hold (launch_hold 1); the inputs are stated. The text report of the
# same results (read back with --replay) shows the timing table and the inputs. TIMING_OUT=DIR keeps the
# JSON and the text there; TIMING_RUNS=N benches sgemm and tensorcore N times (default 1).
# Without a GPU this prints one visible SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "timing tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "timing: cudaclimb device exited $code: $why"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=${TIMING_OUT:-$tmp}
mkdir -p "$out"

# check FILE LESSON STAGE FLUSH FPC_MAX INPUTS: the stage's and the baseline's results in FILE.
check() {
	python3 - "$@" <<'PY' || fail "timing ${1##*/}: the JSON results could not be read"
import json, sys
path, lesson, stage, flush, fpc_max, inputs = sys.argv[1:7]
d = json.load(open(path)); sms = d["device"]["sm_count"]
rs = {r["stage"]: r for r in d["results"]}
def bad(what): print("FAIL timing %s/%s: %s" % (lesson, stage, what))
for name in ("baseline", stage):
    r = rs.get(name)
    if not r or r["status"] != "ok" or not r["reps"]:
        bad("%s did not run: %s" % (name, r and r["message"])); continue
    if r["sm_clock_mhz"] < 0 and r["clock_note"]:
        print("SKIP timing %s/%s: %s" % (lesson, name, r["clock_note"])); continue
    lo, med, hi = r["sm_clock_min_mhz"], r["sm_clock_mhz"], r["sm_clock_max_mhz"]
    if not (500 <= lo <= med <= hi <= 3000):
        bad("%s: SM clock %s (%s-%s) MHz is not a plausible reading" % (name, med, lo, hi)); continue
    want = r["gflops"] * 1e9 / (med * 1e6 * sms) if r["gflops"] > 0 else -1   # no flops model: none
    fpc = r["flop_per_cycle_sm"]
    if abs(fpc - want) > 1e-6 * abs(want) or not (want < 0 or 0 < fpc <= float(fpc_max)):
        bad("%s: %.2f FLOP/cycle/SM, expected %.2f from %.1f GFLOP/s at %.0f MHz on %d SMs (at most %s)" % (name, fpc, want, r["gflops"], med, sms, fpc_max)); continue
    if r["l2_flush"] != int(flush):
        bad("%s: l2_flush %d, expected %s" % (name, r["l2_flush"], flush)); continue
    if r.get("launch_hold") != 1:
        bad("%s: launch_hold %s, expected 1 (the start event behind the hold)" % (name, r.get("launch_hold"))); continue
    if not r["inputs"].startswith(inputs) or "; seed %d" % r["seed"] not in r["inputs"]:
        bad("%s: inputs '%s', expected '%s...; seed %d'" % (name, r["inputs"], inputs, r["seed"])); continue
    if name == "baseline":
        if r["pair"] or r["pair_ratio"]: bad("the baseline has a pair: %s" % r["pair"]); continue
    else:
        p20, p, p80, pc = r["pair_ratio_p20"], r["pair_ratio"], r["pair_ratio_p80"], r["pair_sm_clock_mhz"]
        if r["pair"] != "baseline" or not (0 < p20 <= p <= p80):
            bad("pair '%s', ratio %s [%s, %s]" % (r["pair"], p, p20, p80)); continue
        if abs(p - r["pair_ms_median"] / r["ms_median"]) > 0.15 * p:
            bad("the per-pair ratio %.3f is far from the medians' %.3f" % (p, r["pair_ms_median"] / r["ms_median"])); continue
        pf = r["pair_flop_per_cycle_sm"]
        if not (500 <= pc <= 3000) or not (0 < pf <= float(fpc_max) if rs["baseline"]["gflops"] > 0 else pf == -1):
            bad("the pair's clock %s MHz or FLOP/cycle %s" % (pc, r["pair_flop_per_cycle_sm"])); continue
    print("PASS timing %s/%s: %.0f MHz (%.0f-%.0f), %.1f FLOP/cycle/SM at %.1f GFLOP/s, l2_flush %d%s" % (lesson, name, med, lo, hi, fpc,
          r["gflops"], r["l2_flush"], "" if name == "baseline" else ", %.3fx the baseline per pair [%.3f, %.3f]" % (p, p20, p80)))
PY
}

# bench LESSON STAGE TAG: the JSON to $out/LESSON-STAGE-TAG.json, its text (replayed) beside it.
bench() {
	f="$out/$1-$2-$3.json"
	timeout 300 $B bench "$1" --stage "$2" --no-counters --json >"$f" 2>"$out/$1-$2-$3.err"
	timeout 60 $B --replay "$f" bench "$1" --stage "$2" --no-counters >"$out/$1-$2-$3.txt" 2>&1
}

runs=${TIMING_RUNS:-1}
i=1
while [ $i -le $runs ]; do
	bench sgemm warptile $i
	bench tensorcore wgmma_ws $i
	i=$((i + 1))
done
# FP32: 128 lanes x 2 flops per SM per cycle; BF16 dense: 4096 (assets/arch.yaml); SAXPY: as FP32.
check "$out/sgemm-warptile-1.json" sgemm warptile 3 256 "A, B: f32, uniform in [-1, 1]"
# Whatever the outputs' size (sgemm's C, 64 MB, is less than twice the H100's 50 MiB L2; tensorcore's
# FP32 C, 256 MiB, and bandwidth's y, 256 MiB, more), the same read empties the L2 after the poisoning.
check "$out/tensorcore-wgmma_ws-1.json" tensorcore wgmma_ws 3 4096 "A, B: bf16, uniform in [-1, 1]"
bench bandwidth coalesced 1
check "$out/bandwidth-coalesced-1.json" bandwidth coalesced 3 256 "x, y: f32, uniform in [-1, 1]"

t="$out/tensorcore-wgmma_ws-1.txt"
if grep -Eq '^wgmma_ws +[0-9]+ +[0-9.]+ +[0-9]+ \([0-9]+-[0-9]+\) +([0-9]+ \([0-9]+\)|-) +[0-9.]+  baseline +[0-9.]+x \[[0-9.]+, [0-9.]+\]' "$t" &&
   grep -q '^Inputs: A, B: bf16, uniform in \[-1, 1\]; seed [0-9]*\.$' "$t" && grep -q "^L2 emptied before each repetition, outside the events: after the outputs' poisoning, a read of" "$t" &&
   grep -q "^L2 emptied before each repetition" "$out/sgemm-warptile-1.txt" &&
   grep -q "^the start event queued behind a kernel that holds the GPU until the host has queued the" "$t"; then
	pass "timing: the text report shows wgmma_ws's clock, FLOP/cycle, ratio per pair, the flush, the hold and the inputs"
else
	fail "timing: the text report lacks the timing table, the flush, the hold or the inputs"; sed 's/^/    /' "$t" | tail -25
fi

# The numbers, last: per run, each stage's and its baseline's median ms, clock and FLOP/cycle.
python3 - "$out" <<'PY'
import glob, json, os, sys
print("%-28s %-10s %9s %9s %6s %9s %-24s" % ("run", "stage", "ms", "TFLOP/s", "MHz", "FLOP/cyc", "stage/base per pair"))
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    try: d = json.load(open(f))
    except Exception: continue
    for r in d["results"]:
        if r["status"] != "ok": continue
        pr = "%.3fx [%.3f, %.3f]" % (r["pair_ratio"], r["pair_ratio_p20"], r["pair_ratio_p80"]) if r["pair_ratio"] > 0 else "-"
        print("%-28s %-10s %9.4f %9.1f %6.0f %9.1f %-24s" % (os.path.basename(f)[:-5], r["stage"], r["ms_median"], r["gflops"] / 1000,
              r["sm_clock_mhz"], r["flop_per_cycle_sm"], pr))
PY
