#!/bin/sh
# The timing lesson (issue #34 item 2) on a GPU: `bench timing` at the defaults with every stage ok,
# the checked ones exact against the events stage, and each result saying how it was timed (the
# result's timing field: host clock with and without a sync, one cold run, a warm L2, "" for the tool's
# method); first_launch made of exactly one repetition; every stage at n = 1, 7 and 1000003 (a prime);
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

# judge FILE [STAGES]: every result ok; every stage but warm_l2 (check: false) and the baseline checked
# and passed; each stage's timing field as its timing: says; with STAGES, that many stage results.
judge() {
	python3 - "$1" "${2:-0}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = int(sys.argv[2])
method = {"host_nosync": "host clock, no sync", "host_sync": "host clock, sync", "first_launch": "CUDA events, no warm-up, 1 run",
          "warm_l2": "CUDA events, L2 warm", "events": "", "pipe_slow": "", "pipe_fast": "", "baseline": ""}
bad, seen = [], []
for r in d.get("results", []):
    st = r.get("stage")
    seen.append(st)
    if r.get("status") != "ok":
        bad.append("%s: status %s %s" % (st, r.get("status"), r.get("message", "")))
        continue
    if st not in ("baseline", "warm_l2") and not (r.get("checked") and r.get("passed")):
        bad.append("%s: check failed (checked %s, max_abs_err %s, first_bad %s, unwritten %s)" %
                   (st, r.get("checked"), r.get("max_abs_err"), r.get("first_bad"), r.get("unwritten")))
    if st in method and r.get("timing") != method[st]:
        bad.append("%s: timing field '%s', expected '%s'" % (st, r.get("timing"), method[st]))
    if st == "first_launch" and r.get("reps") != 1:
        bad.append("first_launch: %s repetitions, expected 1" % r.get("reps"))
    for c in r.get("claims", []):
        print("    note: %s: claim '%s' %s %s" % (st, c.get("expect"), c.get("state"), c.get("values", c.get("missing", ""))))
    print("    info: %s: %.4f ms, %.4g GB/s, %.3g%% of attainable, SM %s MHz, %s reps" % (st, r.get("ms_median") or 0, r.get("gbps") or 0,
          r.get("pct_attainable_bw") or 0, r.get("sm_clock_mhz"), r.get("reps")))
stages = [s for s in seen if s != "baseline"]
if want and len(stages) != want:
    bad.append("%d stages, expected %d" % (len(stages), want))
print("    stages: " + " ".join(str(s) for s in seen))
for b in bad:
    print("    " + b)
sys.exit(1 if bad or not seen else 0)
PY
}

$B bench timing --json --timeout 120 >"$T/bench.json" 2>"$T/bench.err"
if [ -s "$T/bench.json" ] && judge "$T/bench.json" 7 >"$T/judge.out"; then
	pass "gpu timing lesson: bench at the defaults, every stage ok and timed as it says"; cat "$T/judge.out"
else
	fail "gpu timing lesson: bench at the defaults"; cat "$T/judge.out" "$T/bench.err" 2>/dev/null | head -30 | sed 's/^/    /'
fi
$B --replay "$T/bench.json" bench timing --no-counters >"$T/bench.txt" 2>&1
if grep -q "^host_nosync: timed by the stage's own method, not the tool's: host clock, no sync" "$T/bench.txt"; then
	pass "gpu timing lesson: the text report names host_nosync's method"
else fail "gpu timing lesson: the text report lacks host_nosync's method"; head -40 "$T/bench.txt" | sed 's/^/    /'; fi

for st in host_nosync host_sync first_launch warm_l2 events pipe_slow pipe_fast; do
	for n in 1 7 1000003; do
		$B run timing/$st --set n=$n --reps 3 --no-counters --timeout 120 --json >"$T/run.json" 2>"$T/run.err"
		if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then pass "gpu timing lesson: $st at n=$n"
		else fail "gpu timing lesson: $st at n=$n"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -20 | sed 's/^/    /'; fi
	done
done

try_exercise "gpu timing lesson" timing/events $K "wrong"
