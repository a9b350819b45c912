#!/bin/sh
# The dp lesson (Smith-Waterman along anti-diagonals, DPX) on a GPU: a bench at the defaults (four
# stages, each ok and exact against the row stage, no claim contradicted); every stage at odd sizes
# (a single pair of one base each, 7 pairs of 7, lengths around one strip of 32, primes near the
# largest lengths, a prime number of pairs near 10^6, zero gap costs, the largest scores the 16-bit
# stage allows) and at other WARPS; the 16-bit stage refusing scores that do not fit 16 bits; the
# exercise's starter not passing and the stage's own kernel passing as the learner's file.
# Without a GPU: one SKIP line. Run on the GPU box with scripts/gpu-tests.sh dp.
. tests/lib.sh
K=kernels/dp

$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu dp: no GPU"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1; then skip "gpu dp: python3 is needed to read --json"; exit 0; fi

T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# judge FILE [claims] [STAGES]: every result has status ok and its check passed (exact against the
# row stage); with "claims", no claim is contradicted; with STAGES, exactly that many results
judge() {
	python3 - "$1" "${2:-}" "${3:-0}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad, seen = [], []
for r in d.get("results", []):
    st = r.get("stage")
    seen.append(st)
    if r.get("status") != "ok":
        bad.append("%s: status %s %s" % (st, r.get("status"), r.get("message", "")))
        continue
    if not (r.get("checked") and r.get("passed")):
        bad.append("%s: check failed (first_bad %s, unwritten %s, max_abs_err %s)" %
                   (st, r.get("first_bad"), r.get("unwritten"), r.get("max_abs_err")))
    if sys.argv[2] == "claims":
        for c in r.get("claims", []):
            if c.get("state") == "contradicted":
                bad.append("%s: claim '%s' contradicted (%s)" % (st, c.get("expect"), c.get("values")))
            elif c.get("state") != "holds":
                print("    note: %s: claim '%s' %s %s" % (st, c.get("expect"), c.get("state"), c.get("missing", "")))
    if r.get("ms_median"):
        print("    %s: %.4f ms, %.1f GCUPS" % (st, r["ms_median"], r.get("gflops", 0)))
print("    stages: " + " ".join(str(s) for s in seen))
want = int(sys.argv[3])
if want and len(seen) != want:
    bad.append("%d results, expected %d" % (len(seen), want))
for b in bad:
    print("    " + b)
sys.exit(1 if bad or not seen else 0)
PY
}

$B bench dp --json >"$T/bench.json" 2>"$T/bench.err"
if [ ! -s "$T/bench.json" ]; then fail "gpu dp bench: no JSON"; head -20 "$T/bench.err"; else
	if judge "$T/bench.json" claims 4 >"$T/judge.out"; then pass "gpu dp bench: four stages, each ok and exact against the row stage, no claim contradicted"
	else fail "gpu dp bench: a stage failed, a claim was contradicted or a stage is missing"; fi
	sed 's/^/    /' "$T/judge.out" | head -30
fi

# Every stage at each odd size, one bench each (no counters)
for set in "pairs=1 m=1 n=1" "pairs=7 m=7 n=7" "pairs=3 m=31 n=33" "pairs=5 m=32 n=32" "pairs=9 m=33 n=1" \
	"pairs=13 m=1021 n=1019" "pairs=999983 m=7 n=5" "pairs=1001 m=100 n=131 gap_open=0 gap_ext=0" \
	"pairs=101 m=97 n=89 match=0 mismatch=0" "pairs=65 m=1024 n=1024 match=31 mismatch=0 gap_open=64 gap_ext=64"; do
	args=""
	for s in $set; do args="$args --set $s"; done
	# shellcheck disable=SC2086
	$B bench dp $args --no-counters --json >"$T/run.json" 2>"$T/run.err"
	if [ -s "$T/run.json" ] && judge "$T/run.json" "" 4 >"$T/judge.out"; then
		pass "gpu dp every stage at $set: ok and exact against the row stage"
	else
		fail "gpu dp at $set"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10
	fi
done

# The warp stages at each WARPS, at a size whose last block is partly empty
for s in diag dpx dpx16; do
	for w in 1 2 8; do
		$B run dp/$s --set WARPS=$w --set pairs=1003 --set m=65 --set n=77 --no-counters --json >"$T/run.json" 2>"$T/run.err"
		if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then pass "gpu dp $s at WARPS=$w, 1003 pairs: ok and exact"
		else fail "gpu dp $s at WARPS=$w"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10; fi
	done
done

# Scores that would not fit 16 bits: the 16-bit stage refuses, naming the bound
out=$($B run dp/dpx16 --set match=64 --set m=1024 --set n=1024 --set pairs=3 --no-counters 2>&1); rc=$?
if [ $rc -ne 0 ] && printf '%s' "$out" | grep -q "16-bit"; then pass "gpu dp dpx16 at match 64 x 1024: refused, saying the scores do not fit 16 bits"
else fail "gpu dp dpx16 at match 64 x 1024: exit $rc, expected a refusal naming the 16-bit bound"; printf '%s\n' "$out" | head -5; fi

# the exercise: the starter as it is must not pass; the stage's own kernel must
try_exercise "gpu dp" dp/diag "$K" 'wrong'
