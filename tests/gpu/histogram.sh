#!/bin/sh
# The histogram lesson on a GPU: a bench at the defaults (every stage ok and exact against CUB, no
# claim contradicted); every stage at odd sizes (n = 1, 7, 1000003), at few and many bins, uniform
# and skewed keys; the cluster stage (sm_90 on) at 65536 bins, which no single block's shared memory
# holds; the exercise's starter not passing and the stage's own kernel passing as the learner's file.
# Without a GPU: one SKIP line. Run on the GPU box with scripts/gpu-tests.sh histogram.
. tests/lib.sh
K=kernels/histogram

$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu histogram: no GPU"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1; then skip "gpu histogram: python3 is needed to read --json"; exit 0; fi

T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# judge FILE [claims]: every result has status ok (or unsupported: a stage this GPU cannot run) and
# every stage's check passed; with "claims", no claim is contradicted
judge() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad, seen = [], []
for r in d.get("results", []):
    st = r.get("stage")
    seen.append(st)
    if r.get("status") == "unsupported":
        print("    note: %s unsupported here: %s" % (st, r.get("message", "")))
        continue
    if r.get("status") != "ok":
        bad.append("%s: status %s %s" % (st, r.get("status"), r.get("message", "")))
        continue
    if st != "baseline" and not (r.get("checked") and r.get("passed")):
        bad.append("%s: check failed (first_bad %s, unwritten %s, max_abs_err %s)" %
                   (st, r.get("first_bad"), r.get("unwritten"), r.get("max_abs_err")))
    if sys.argv[2] == "claims":
        for c in r.get("claims", []):
            if c.get("state") == "contradicted":
                bad.append("%s: claim '%s' contradicted (%s)" % (st, c.get("expect"), c.get("values")))
            elif c.get("state") != "holds":
                print("    note: %s: claim '%s' %s %s" % (st, c.get("expect"), c.get("state"), c.get("missing", "")))
    if r.get("status") == "ok" and r.get("ms_median"):
        print("    %s: %.4f ms, %.0f GB/s" % (st, r["ms_median"], r.get("gbps", 0)))
print("    stages: " + " ".join(str(s) for s in seen))
for b in bad:
    print("    " + b)
sys.exit(1 if bad or not seen else 0)
PY
}

$B bench histogram --json >"$T/bench.json" 2>"$T/bench.err"
if [ ! -s "$T/bench.json" ]; then fail "gpu histogram bench: no JSON"; head -20 "$T/bench.err"; else
	n=$(python3 -c 'import json,sys; print(len([r for r in json.load(open(sys.argv[1]))["results"] if r.get("stage") != "baseline"]))' "$T/bench.json")
	[ "$n" = 5 ] || fail "gpu histogram bench: $n stages, expected 5"
	if judge "$T/bench.json" claims >"$T/judge.out"; then pass "gpu histogram bench: every stage ok and exact against CUB, no claim contradicted"
	else fail "gpu histogram bench: a stage failed or a claim was contradicted"; fi
	sed 's/^/    /' "$T/judge.out" | head -30
fi

# skew=0 with the defaults: the uniform-key claims (warp's small cost) are judged there
$B bench histogram --set skew=0 --no-counters --json >"$T/uniform.json" 2>"$T/uniform.err"
if [ -s "$T/uniform.json" ] && judge "$T/uniform.json" claims >"$T/judge.out"; then pass "gpu histogram bench at skew 0: ok, exact, no claim contradicted"
else fail "gpu histogram bench at skew 0"; cat "$T/judge.out" "$T/uniform.err" 2>/dev/null | head -20; fi

# 32768 bins: the cluster stage's claims about many bins are judged there (coarse still runs)
$B bench histogram --set bins=32768 --stage coarse,cluster --no-counters --json >"$T/many.json" 2>"$T/many.err"
if [ -s "$T/many.json" ] && judge "$T/many.json" claims >"$T/judge.out"; then pass "gpu histogram bench at 32768 bins: ok, exact, no claim contradicted"
else fail "gpu histogram bench at 32768 bins"; cat "$T/judge.out" "$T/many.err" 2>/dev/null | head -20; fi

# Every stage and the baseline at each odd size, one bench each (with the default reps, no counters)
for set in "n=1" "n=7" "n=7 bins=3" "n=1000003" "n=1000003 bins=32 skew=0.9" "n=1000003 bins=4099 skew=0" "n=999983 bins=1 skew=1" "n=1000003 bins=20000 skew=0.3"; do
	args=""
	for s in $set; do args="$args --set $s"; done
	# shellcheck disable=SC2086
	$B bench histogram $args --no-counters --json >"$T/run.json" 2>"$T/run.err"
	if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then
		pass "gpu histogram every stage at $set: ok and exact against CUB"
	else
		fail "gpu histogram at $set"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10
	fi
done

# A histogram larger than one block's shared memory: the cluster stage holds it, the coarse stage refuses.
for c in 2 4 8; do
	$B run histogram/cluster --set bins=65536 --set n=1000003 --set CLUSTER=$c --no-counters --json >"$T/run.json" 2>"$T/run.err"
	if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then pass "gpu histogram cluster of $c at 65536 bins: ok and exact"
	else fail "gpu histogram cluster of $c at 65536 bins"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10; fi
done
out=$($B run histogram/coarse --set bins=65536 --set n=1000003 --no-counters 2>&1); rc=$?
if [ $rc -ne 0 ] && printf '%s' "$out" | grep -q "does not fit"; then pass "gpu histogram coarse at 65536 bins: refused, saying the private histogram does not fit"
else fail "gpu histogram coarse at 65536 bins: exit $rc, expected a refusal naming the shared memory"; printf '%s\n' "$out" | head -5; fi

# the exercise: the starter as it is must not pass; the stage's own kernel must
try_exercise "gpu histogram" histogram/shared "$K" 'wrong|unwritten|slow|out of bounds'
