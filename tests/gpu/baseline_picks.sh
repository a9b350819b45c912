#!/bin/sh
# The library baselines' timed choices on a GPU (#48 items 2 and 3): each cuBLASLt and cuDNN baseline
# runs, is right where it is checked, and names its choice (library_choice); a second worker with the
# same cache folder runs the kept choice ("kept from an earlier timing"), and CUDACLIMB_BASELINE_REPICK=1
# times them again; a fourth worker keeps that third timing's choice. baseline.fp8_tensor and
# baseline.fp8_tensor_fast (per-tensor scales, unchecked)
# and the cuBLASLt GEMMs (baseline.bf16_lt and its twins) run. Each run has the tool's default
# repetitions. The spread of each baseline's median is said (INFO), not judged, twice: between the
# first worker (which timed the candidates just before, on a warmer card) and the second, and between
# the two workers that kept a choice (the second and the fourth, saying whether it was the same one),
# beside their median SM clocks: the
# 3% of #48 is a measurement on an idle card. BASELINE_PICKS_OUT=DIR keeps the runs' JSON there.
# Without a GPU: one SKIP line.
. tests/lib.sh
$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu baseline picks: no GPU"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1; then skip "gpu baseline picks: python3 is needed to read --json"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"   # a fresh store of choices: the first worker times, the second keeps
set -- precision_gemm/baseline.fp8 precision_gemm/baseline.fp8_tensor precision_gemm/baseline.fp8_tensor_fast precision_gemm/baseline.int8 \
	precision_gemm/baseline.bf16_lt precision_gemm/baseline.fp16_lt precision_gemm/baseline.tf32_lt \
	conv2d/baseline fusion/baseline fusion/baseline.three_calls attention/baseline
for round in 1 2 3 4; do
	for b in "$@"; do
		name=$(printf '%s' "$b" | tr '/.' '__')
		[ $round = 3 ] && export CUDACLIMB_BASELINE_REPICK=1
		CUDACLIMB_BASELINE_LOG=1 $B run "$b" --no-counters --timeout 120 --json >"$tmp/$name.$round.json" 2>"$tmp/$name.$round.err"
		unset CUDACLIMB_BASELINE_REPICK
	done
done
python3 - "$tmp" "$@" <<'PY'
import json, os, sys
tmp, runs = sys.argv[1], sys.argv[2:]
for b in runs:
    name = b.replace("/", "_").replace(".", "_")
    rs = []
    for rnd in (1, 2, 3, 4):
        try:
            d = json.load(open(os.path.join(tmp, "%s.%d.json" % (name, rnd))))
            rs.append([r for r in d["results"] if r["stage"].startswith("baseline")][0])
        except Exception as e:
            err = open(os.path.join(tmp, "%s.%d.err" % (name, rnd))).read()[-300:]
            rs.append(None)
            print("FAIL gpu baseline picks: %s round %d: no result (%s): %s" % (b, rnd, e, err))
    if None in rs:
        continue
    ok = all(r["status"] == "ok" and (not r["checked"] or r["passed"]) for r in rs)
    print("%s gpu baseline picks: %s runs%s in four workers: %s" % ("PASS" if ok else "FAIL", b,
          " and is right" if rs[0]["checked"] else " (unchecked)", ", ".join("%s %s" % (r["status"], r["message"][:80]) for r in rs)))
    ch = [r.get("library_choice", "") for r in rs]
    print("%s gpu baseline picks: %s names its choice: %s" % ("PASS" if all(ch) else "FAIL", b, ch[0]))
    print("%s gpu baseline picks: %s: the second worker keeps the first's choice, REPICK times again: %s | %s" % (
        "PASS" if "kept from an earlier timing" in ch[1] and "kept" not in ch[2] else "FAIL", b, ch[1], ch[2]))
    # the fourth keeps the third's timing (REPICK stored it): the two kept runs may be two choices
    def algo(c):
        # a timed pick of a heuristic that offers one algorithm says "cuBLASLt's only algorithm from the
        # heuristic"; kept, it is "cuBLASLt algorithm 1 of the heuristic's 1": the same choice
        c = c.replace("cuBLASLt's only algorithm from the heuristic", "cuBLASLt algorithm 1 of the heuristic's 1")
        return c.split(" (")[0].split(":")[0]
    print("%s gpu baseline picks: %s: the fourth worker keeps the third's choice: %s" % (
        "PASS" if "kept from an earlier timing" in ch[3] and algo(ch[3]) == algo(ch[2]) else "FAIL", b, ch[3]))
    same = algo(ch[1]) == algo(ch[3])
    ms = [r["ms_median"] for r in rs]
    mhz = ["%.0f" % r.get("sm_clock_mhz", 0) for r in rs]
    if min(ms) > 0:
        print("INFO gpu baseline picks: %s median %.4f (timed) then %.4f ms (kept): %.1f%% apart; kept twice %.4f and %.4f ms: "
              "%.1f%% apart (%s); SM clock %s MHz in the four workers; reps %s; min %s ms; launch hold %s" % (b, ms[0], ms[1], 100 * abs(ms[1] - ms[0]) / min(ms[:2]),
              ms[1], ms[3], 100 * abs(ms[3] - ms[1]) / min(ms[1], ms[3]), "the same choice" if same else "two choices: %s | %s" % (algo(ch[1]), algo(ch[3])),
              "/".join(mhz), "/".join(str(r.get("reps")) for r in rs), "/".join("%.4f" % r.get("ms_min", 0) for r in rs),
              "/".join(str(r.get("launch_hold", "-")) for r in rs)))
PY
[ -n "${BASELINE_PICKS_OUT:-}" ] && mkdir -p "$BASELINE_PICKS_OUT" && cp "$tmp"/*.json "$tmp"/*.err "$BASELINE_PICKS_OUT"/ 2>/dev/null
exit 0
