#!/bin/sh
# The timing lesson (issue #34 item 2) on a GPU: `bench timing` at the defaults with every stage ok,
# the checked ones exact against the events stage, and each result saying how it was timed (the
# result's timing field: host clock with and without a sync, one cold run, a warm L2, "" for the tool's
# method); first_launch made of exactly one repetition, burst of 10 and sustained of 2000, each of those
# two with the SM clock and the board's power read (NVML); every SAXPY stage at n = 1, 7 and 1000003 (a prime);
# the exercise's starter wrong through `try` and the stage's own kernel passing. Claims are printed as
# notes (tests/gpu/claims.sh judges them). Without a GPU: one SKIP line. TIMING_LESSON_OUT=DIR keeps
# the JSON results there.
. tests/lib.sh
K=kernels/timing

$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu timing lesson: no GPU"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1; then skip "gpu timing lesson: python3 is needed to read --json"; exit 0; fi

T=${TIMING_LESSON_OUT:-$(mktemp -d)}
[ -z "${TIMING_LESSON_OUT:-}" ] && trap 'rm -rf "$T"' EXIT
mkdir -p "$T"

# judge FILE [OPTIONS]: tests/gpu/judge.py (every result ok, every stage checked and passed; --claims:
# no claim contradicted; its header lists the other options)
judge() { python3 tests/gpu/judge.py "$@"; }

$B bench timing --json --timeout 120 >"$T/bench.json" 2>"$T/bench.err"
if [ -s "$T/bench.json" ] && judge "$T/bench.json" --stages 9 --unchecked warm_l2,burst,sustained --reps first_launch=1 --reps burst=10 --reps sustained=2000 --timing "host_nosync=host clock, no sync" --timing "host_sync=host clock, sync" --timing "first_launch=CUDA events, no warm-up, 1 run" --timing "warm_l2=CUDA events, L2 warm" --timing events= --timing pipe_slow= --timing pipe_fast= --timing "burst=CUDA events, 10 runs" --timing "sustained=CUDA events, 2000 runs" >"$T/judge.out"; then
	pass "gpu timing lesson: bench at the defaults, every stage ok and timed as it says"; cat "$T/judge.out"
else
	fail "gpu timing lesson: bench at the defaults"; cat "$T/judge.out" "$T/bench.err" 2>/dev/null | head -30 | sed 's/^/    /'
fi
$B --replay "$T/bench.json" bench timing --no-counters >"$T/bench.txt" 2>&1
# Burst and sustained: the clock and the power read beside the GEMM (the claims that compare them are
# tests/gpu/claims.sh's), and the Timing table's W (max) column filled for them.
python3 - "$T/bench.json" <<'PY' || fail "gpu timing lesson: burst and sustained could not be read"
import json, sys
rs = {r["stage"]: r for r in json.load(open(sys.argv[1]))["results"]}
for s in ("burst", "sustained"):
    r = rs.get(s)
    if not r or r["status"] != "ok":
        print("FAIL gpu timing lesson: %s did not run: %s" % (s, r and r["message"])); continue
    if r["sm_clock_mhz"] > 0 and r["power_w"] > 0 and r["power_max_w"] >= r["power_w"]:
        print("PASS gpu timing lesson: %s read the clock and the power: %.0f MHz (%.0f-%.0f), %.0f W (max %.0f), %.1f TFLOP/s" % (
              s, r["sm_clock_mhz"], r["sm_clock_min_mhz"], r["sm_clock_max_mhz"], r["power_w"], r["power_max_w"], r["gflops"] / 1000))
    else:
        print("FAIL gpu timing lesson: %s: clock %s, power %s (max %s): %s %s" % (s, r["sm_clock_mhz"], r["power_w"], r["power_max_w"],
              r.get("clock_note", ""), r.get("power_note", "")))
PY
if grep -Eq '^sustained +2000 .* [0-9]+ \([0-9]+\) ' "$T/bench.txt"; then pass "gpu timing lesson: the Timing table shows sustained's power"
else fail "gpu timing lesson: the Timing table lacks sustained's power (W (max))"; grep -A12 '^Timing' "$T/bench.txt" | sed 's/^/    /'; fi
if grep -q "^host_nosync: timed by the stage's own method, not the tool's: host clock, no sync" "$T/bench.txt"; then
	pass "gpu timing lesson: the text report names host_nosync's method"
else fail "gpu timing lesson: the text report lacks host_nosync's method"; head -40 "$T/bench.txt" | sed 's/^/    /'; fi

for st in host_nosync host_sync first_launch warm_l2 events pipe_slow pipe_fast; do
	for n in 1 7 1000003; do
		$B run timing/$st --set n=$n --reps 3 --no-counters --timeout 120 --json >"$T/run.json" 2>"$T/run.err"
		if [ -s "$T/run.json" ] && judge "$T/run.json" --unchecked warm_l2 >"$T/judge.out"; then pass "gpu timing lesson: $st at n=$n"
		else fail "gpu timing lesson: $st at n=$n"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -20 | sed 's/^/    /'; fi
	done
done

try_exercise "gpu timing lesson" timing/events $K "wrong"
