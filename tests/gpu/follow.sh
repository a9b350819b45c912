#!/bin/sh
# check.follow on a GPU (issue #32): tests/fixtures/follow's stages compute y = SCALE x with SCALE a
# tunable. With follow the wide stage is right at SCALE = 2 (its default) and 3 is refused; without it
# the same run is compared with the reference at SCALE = 1 and is reported wrong, which is what follow
# is for. `bench` runs both stages in one worker, whose kept reference outputs must not be taken for
# another SCALE's: plain's code is the same at every SCALE (an argument), so only the reference's
# plan tells the two apart.
. tests/lib.sh
$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu follow: no GPU"; exit 0; fi
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
L="--lessons tests/fixtures/follow"
st() { python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(r["stage"], r["status"], "passed" if r.get("passed") else "not-passed", r.get("reference", ""))' "$1" 2>&1; }
$B $L bench follow --json --reps 5 >"$T/b.json" 2>"$T/b.err"
out=$(st "$T/b.json")
if printf '%s\n' "$out" | grep -q "^plain ok passed plain SCALE=1$" && printf '%s\n' "$out" | grep -q "^wide ok passed plain SCALE=2$"; then
	pass "gpu follow: bench, each stage right against the reference at its own SCALE"
else fail "gpu follow: bench"; printf '%s\n' "$out" | sed 's/^/    /'; head -5 "$T/b.err"; fi
for n in 1 7 1000003; do
	$B $L run follow/wide --set n=$n --set SCALE=1 --json --reps 3 >"$T/r.json" 2>/dev/null
	st "$T/r.json" | grep -q "^wide ok passed plain SCALE=1$" && pass "gpu follow: wide at n=$n SCALE=1 right" || { fail "gpu follow: wide at n=$n SCALE=1"; st "$T/r.json" | head -3; }
done
expect "gpu follow: SCALE=3, which the reference does not allow, is refused" 2 "cannot check this run" $B $L run follow/wide --set SCALE=3 --reps 3
cp -r tests/fixtures/follow "$T/nf" && sed -i '/^  follow:/d' "$T/nf/lessons/follow.yaml"
$B --lessons "$T/nf" run follow/wide --json --reps 3 >"$T/n.json" 2>/dev/null
st "$T/n.json" | grep -q "^wide wrong not-passed plain SCALE=1$" && pass "gpu follow: without follow the same run is compared at SCALE=1 and is wrong" \
	|| { fail "gpu follow: without follow"; st "$T/n.json" | head -3; }
