#!/bin/sh
# The latency lesson (issue #34 item 1) on a GPU: `bench latency` at the defaults (1 GiB, 2048 steps)
# with every stage ok and the chases exact against the warps stage (claims listed as notes, judged
# by tests/gpu/claims.sh); every stage at log2_elems = 1, 7, 20 and steps = 1, 7; the chases at a
# prime step count (1000003) over an L1-sized buffer; runs whose tunables check.follow carries to the
# reference (CHAINS, LOG2_WS); a 4 GiB buffer (log2_elems = 30); the shared stage refusing a chain
# that does not fit in shared memory; the exercise's starter wrong through `try` and the stage's own
# kernel passing. Without a GPU: one SKIP line. LATENCY_OUT=DIR keeps the JSON results there.
. tests/lib.sh
K=kernels/latency

$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu latency: no GPU"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1; then skip "gpu latency: python3 is needed to read --json"; exit 0; fi

T=${LATENCY_OUT:-$(mktemp -d)}
[ -z "${LATENCY_OUT:-}" ] && trap 'rm -rf "$T"' EXIT
mkdir -p "$T"

# judge FILE [STAGES]: every result of that --json has status ok and, except the baseline and the
# stream stage (check: false), a passed check; with STAGES (a count), that many stage results
# besides the baseline. Claims are printed as notes.
judge() {
	python3 - "$1" "${2:-0}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = int(sys.argv[2])
bad, seen = [], []
for r in d.get("results", []):
    st = r.get("stage")
    seen.append(st)
    if r.get("status") != "ok":
        bad.append("%s: status %s %s" % (st, r.get("status"), r.get("message", "")))
        continue
    if st not in ("baseline", "stream") and not (r.get("checked") and r.get("passed")):
        bad.append("%s: check failed (checked %s, max_abs_err %s, first_bad %s, unwritten %s)" %
                   (st, r.get("checked"), r.get("max_abs_err"), r.get("first_bad"), r.get("unwritten")))
    for c in r.get("claims", []):
        print("    note: %s: claim '%s' %s %s" % (st, c.get("expect"), c.get("state"), c.get("values", c.get("missing", ""))))
    if r.get("ms_median") is not None:
        print("    info: %s: %.4f ms, %.4g GB/s, %.3g%% of attainable" % (st, r.get("ms_median", 0), r.get("gbps") or 0, r.get("pct_attainable_bw") or 0))
stages = [s for s in seen if s != "baseline"]
if want and len(stages) != want:
    bad.append("%d stages, expected %d" % (len(stages), want))
print("    stages: " + " ".join(str(s) for s in seen))
for b in bad:
    print("    " + b)
sys.exit(1 if bad or not seen else 0)
PY
}

# one NAME STAGE SETTINGS...: runs latency/STAGE with those --set settings and judges it.
one() {
	name=$1 st=$2; shift 2
	args=""
	for s in "$@"; do args="$args --set $s"; done
	# shellcheck disable=SC2086
	$B run latency/$st $args --reps 3 --no-counters --timeout 120 --json >"$T/run.json" 2>"$T/run.err"
	if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then
		pass "gpu latency $st $name"
	else
		fail "gpu latency $st $name"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10 | sed 's/^/    /'
	fi
}

$B bench latency --timeout 120 --json >"$T/bench.json" 2>"$T/bench.err"
if [ -s "$T/bench.json" ] && judge "$T/bench.json" 5 >"$T/judge.out"; then
	pass "gpu latency bench: every stage ok, every chase exact against the warps stage at the defaults"; sed -n '/info:/p' "$T/judge.out"
else
	fail "gpu latency bench"; cat "$T/judge.out" "$T/bench.err" 2>/dev/null | head -30 | sed 's/^/    /'
fi

for le in 1 7 20; do
	for steps in 1 7; do
		for st in chase shared chains warps stream; do
			one "at log2_elems = $le, steps = $steps: ok" $st "log2_elems=$le" "steps=$steps"
		done
	done
done

# a prime number of steps over 16 KiB (L1 and shared memory: fast enough for a million steps)
for st in chase shared chains; do
	one "at steps = 1000003 over 16 KiB: exact" $st "log2_elems=12" "steps=1000003"
done
one "at steps = 1000003 over 16 KiB, 1024 chains: exact" warps "log2_elems=12" "steps=1000003" "CHAINS=1024"

# settings check.follow carries to the reference (warps at the same CHAINS and LOG2_WS)
one "CHAINS=8 (one after another): exact" chase "CHAINS=8" "steps=257"
one "CHAINS=32 LOG2_WS=10: exact" chains "CHAINS=32" "LOG2_WS=10" "steps=1001"
one "LOG2_WS=15 CHAINS=4 (128 KiB of shared memory): exact" shared "LOG2_WS=15" "CHAINS=4" "steps=4099"
one "CHAINS=1 BLOCK=32: exact" warps "CHAINS=1" "BLOCK=32"
one "at log2_elems = 30 (4 GiB), steps = 64: exact" chains "log2_elems=30" "steps=64"
one "at log2_elems = 30 (4 GiB): ok" stream "log2_elems=30" "VEC=8" "BLOCK=1024"

# a chain larger than shared memory is refused, saying why, before any launch (16: 256 KiB, more
# than any GPU's 227 KiB a block: the tunable's range stops at 15, the constraint covers smaller GPUs)
out=$($B run latency/shared --set LOG2_WS=16 --no-counters 2>&1)
if printf '%s\n' "$out" | grep -Eq "LOG2_WS = 16 is not allowed|must fit in shared memory"; then pass "gpu latency shared: LOG2_WS=16 (256 KiB) refused, saying why"
else fail "gpu latency shared: LOG2_WS=16 not refused with the constraint's message"; printf '%s\n' "$out" | head -10 | sed 's/^/    /'; fi

# the exercise: the starter as it is must not pass; the stage's own kernel must
try_exercise "gpu latency" latency/chains "$K" 'wrong'
