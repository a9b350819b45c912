#!/bin/sh
# The conv1d fixture lesson (issue #32: a lesson written from lessons/README.md alone) on a GPU:
# every stage correct at the default size, at n = 7 and at n = 1000003 (and with a halo wider
# than the array), its claims not contradicted, the exercise's starter not passing and the stage's
# own kernel passing as the learner's file.
. tests/lib.sh
L="--lessons tests/fixtures/conv1d"
K=tests/fixtures/conv1d/kernels/conv1d

$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu conv1d: no GPU"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1; then skip "gpu conv1d: python3 is needed to read --json"; exit 0; fi

T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# judge FILE WHAT [claims]: every result of that --json has status ok and (stages) a passed check;
# with "claims", no claim is contradicted (unknown ones are listed, not failed)
judge() {
	python3 - "$1" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
seen = []
for r in d.get("results", []):
    st = r.get("stage")
    seen.append(st)
    if r.get("status") != "ok":
        bad.append("%s: status %s %s" % (st, r.get("status"), r.get("message", "")))
        continue
    if st != "baseline" and not (r.get("checked") and r.get("passed")):
        bad.append("%s: check failed (max_rel_err %s, first_bad %s, unwritten %s)" %
                   (st, r.get("max_rel_err"), r.get("first_bad"), r.get("unwritten")))
    if sys.argv[2] == "claims":
        for c in r.get("claims", []):
            if c.get("state") == "contradicted":
                bad.append("%s: claim '%s' contradicted (%s)" % (st, c.get("expect"), c.get("values")))
            elif c.get("state") != "holds":
                print("    note: %s: claim '%s' %s %s" % (st, c.get("expect"), c.get("state"), c.get("missing", "")))
print("    stages: " + " ".join(str(s) for s in seen))
for b in bad:
    print("    " + b)
sys.exit(1 if bad or not seen else 0)
PY
}

$B $L bench conv1d --json >"$T/bench.json" 2>"$T/bench.err"
if [ ! -s "$T/bench.json" ]; then fail "gpu conv1d bench: no JSON"; head -20 "$T/bench.err"; else
	n=$(python3 -c 'import json,sys; print(len([r for r in json.load(open(sys.argv[1]))["results"] if r.get("stage") != "baseline"]))' "$T/bench.json")
	if [ "$n" != 4 ]; then fail "gpu conv1d bench: $n stages, expected 4"; fi
	if judge "$T/bench.json" bench claims; then pass "gpu conv1d bench: every stage ok and correct, no claim contradicted"
	else fail "gpu conv1d bench: a stage failed or a claim was contradicted"; fi
fi

for set in "n=7" "n=1000003" "n=7 R=64" "n=1000003 R=1"; do
	args=""
	for s in $set; do args="$args --set $s"; done
	for st in global constant shared pipeline; do
		# shellcheck disable=SC2086
		$B $L run conv1d/$st $args --json >"$T/run.json" 2>"$T/run.err"
		if [ -s "$T/run.json" ] && judge "$T/run.json" run >"$T/judge.out"; then
			pass "gpu conv1d $st at $set: ok and correct"
		else
			fail "gpu conv1d $st at $set"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10
		fi
	done
done

# the exercise: the starter as it is must not pass; the stage's own kernel must
try_exercise "gpu conv1d" conv1d/shared "$K" 'wrong|unwritten|slow|out of bounds' $L
