#!/bin/sh
# init: cycle and init: { copy } on a GPU (tests/fixtures/cycle): the first W = 2^LOG2 elements of a
# cycle buffer, masked with W - 1, make one cycle through [0, W) (a walk of W steps from 0 adds up to
# W (W - 1) / 2 and ends at 0) for the whole buffer and for prefixes of it, at several sizes and seeds,
# in device memory (u32) and in pinned host memory (u64, filled through the staging buffer); and a
# pinned buffer declared { copy: x } holds x's values. Without a GPU: one SKIP line.
. tests/lib.sh
$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu cycle: no GPU"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1; then skip "gpu cycle: python3 is needed to read --json"; exit 0; fi
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
L="--lessons tests/fixtures/cycle"

# judged FILE: every result ok, checked and passed; prints what is not.
judged() {
	python3 - "$1" <<'PY'
import json, sys
try:
    rs = json.load(open(sys.argv[1]))["results"]
except Exception as e:
    print("no JSON (%s)" % e); sys.exit(1)
bad = ["%s: %s checked %s passed %s %s" % (r["stage"], r["status"], r.get("checked"), r.get("passed"), r.get("message", ""))
       for r in rs if r["stage"] != "baseline" and not (r["status"] == "ok" and r.get("checked") and r.get("passed"))]
print("\n".join(bad) if rs else "no results")
sys.exit(1 if bad or not rs else 0)
PY
}
# one NAME STAGE ARGS...: run cycle/STAGE with ARGS; PASS when it is right against the formula.
one() {
	name=$1 st=$2; shift 2
	$B $L run "cycle/$st" "$@" --reps 3 --no-counters --timeout 120 --json >"$T/r.json" 2>"$T/r.err"
	if judged "$T/r.json" >"$T/j.out"; then pass "gpu cycle: $st $name"
	else fail "gpu cycle: $st $name"; cat "$T/j.out" "$T/r.err" | head -8 | sed 's/^/    /'; fi
}

$B $L bench cycle --reps 3 --no-counters --timeout 120 --json >"$T/b.json" 2>"$T/b.err"
if judged "$T/b.json" >"$T/j.out"; then pass "gpu cycle: bench, every stage right at the defaults (2^20 indices; x copied)"
else fail "gpu cycle: bench"; cat "$T/j.out" "$T/b.err" | head -8 | sed 's/^/    /'; fi
for seed in 1 2 3; do
	for k in 1 2 7 16; do one "k=$k seed $seed: one cycle" walk --set k=$k --seed $seed; done
done
for lg in 1 5 13; do one "k=20 LOG2=$lg: the prefix masked is one cycle" walk --set k=20 --set LOG2=$lg; done
one "k=30 (4 GiB) LOG2=12: the prefix of the largest buffer" walk --set k=30 --set LOG2=12
for k in 3 16; do one "k=$k: one cycle in pinned host memory (u64)" walk_host --set k=$k; done
one "LOG2=9: a prefix in pinned host memory" walk_host --set k=16 --set LOG2=9
for n in 1 1000003; do one "n=$n: h_x holds x's values" copy --set n=$n; done
