#!/bin/sh
# Per-stage baselines (lessons/README.md, "Baselines per stage") without a GPU: the fake worker
# (tests/fake_worker.c) answers, so what is checked is what the engine asks for and how it reads the
# answers: bench pairs each stage with its own baseline, results name it, claims and texts take it,
# run LESSON/baseline.NAME runs a named one, and the loader's errors are file:line:col.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
L="--lessons tests/fixtures/baselines"
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "baselines: the fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
export CUDACLIMB_WORKER=$tmp/fake
E() { CC_FAKE=echo $B $L "$@"; }
expect "baselines: show lists the named ones and their stages" 0 "baseline\.fast: cudaMemcpy named fast \(memcpy\); stages: quick" $B $L show duo
expect "baselines: run LESSON/baseline.NAME runs that one" 0 "^baseline\.wide: plan [0-9]+ bytes cub_reduce_sum " E run duo/baseline.wide --reps 3
expect "baselines: run LESSON/baseline stays the lesson's" 0 "^baseline: plan [0-9]+ bytes memcpy " E run duo/baseline --reps 3
expect "baselines: any case" 0 "^baseline\.fast +1\.0000" E run duo/BASELINE.Fast --reps 3
expect "baselines: an unknown name lists the known ones" 2 "no baseline 'baseline.nope' in duo \(its named baselines: duo/baseline.fast, duo/baseline.wide, duo/baseline.spare\)" $B $L run duo/baseline.nope
expect "baselines: name a stage offers them" 2 "\(or duo/baseline, duo/baseline.fast, duo/baseline.wide, duo/baseline.spare\)" $B $L run duo
E bench duo --reps 3 >"$tmp/bench" 2>&1
grep -Eq "^baseline +1\.0000" "$tmp/bench" && grep -Eq "^baseline\.fast +1\.0000" "$tmp/bench" && grep -Eq "^baseline\.wide +1\.0000" "$tmp/bench" \
	&& pass "baselines: bench runs the lesson's baseline and the named ones" || { fail "baselines: bench runs every baseline"; head -12 "$tmp/bench"; }
grep -Eq "^baseline\.spare " "$tmp/bench" && fail "baselines: bench ran a baseline no stage names" || pass "baselines: a baseline no stage names is not in the bench"
expect "baselines: ... and runs on its own, at its own tolerance" 0 "^baseline\.spare: plan [0-9]+ bytes memcpy" E run duo/baseline.spare --reps 3
E run duo/baseline.spare --reps 3 --json 2>/dev/null | grep -q '"baseline": ""' && pass "baselines: a baseline's own result names no baseline" || fail "baselines: a baseline's result names a baseline"
grep -Eq "^slow: .*pair_plan [0-9]+ bytes memcpy " "$tmp/bench" && grep -Eq "^other: .*pair_plan [0-9]+ bytes cub_reduce_sum " "$tmp/bench" \
	&& pass "baselines: bench pairs each stage with its own baseline" || { fail "baselines: bench pairs"; grep -E "^(slow|other):" "$tmp/bench"; }
CC_FAKE=echo CC_FAKE_RATIO=1.25 $B $L bench duo --reps 3 >"$tmp/ratio" 2>&1
grep -Eq "^other .* 1\.250x  vs wide$" "$tmp/ratio" && grep -Eq "^slow .* 1\.250x  vs baseline$" "$tmp/ratio" \
	&& pass "baselines: the table says which baseline each row was paired with" || { fail "baselines: the table's vs column"; grep -E "^(slow|other) " "$tmp/ratio"; }
expect "baselines: bench --stage runs only the baselines of the stages chosen" 0 "^quick: .*pair_plan" E bench duo --stage quick --reps 3
E bench duo --stage quick --reps 3 2>&1 | grep -Eq "^baseline\.wide " && fail "baselines: bench --stage ran a baseline no chosen stage names" \
	|| pass "baselines: bench --stage leaves out the others' baselines"
# bench --pair BASELINE: every stage beside that one (here the spare, which no stage names), the table and
# the JSON say so, the stages' own baselines still run, and their claims are not judged on the other pair
# (CC_FAKE_RATIO 1.25 per pair; the medians are all 1: time_vs_baseline 1, not 0.8).
CC_FAKE=echo CC_FAKE_RATIO=1.25 $B $L bench duo --pair baseline.spare --reps 3 >"$tmp/pair" 2>&1
grep -Eq "^slow: .*pair_plan [0-9]+ bytes memcpy " "$tmp/pair" && grep -Eq "^other: .*pair_plan [0-9]+ bytes memcpy " "$tmp/pair" \
	&& grep -Eq "^other .* 1\.250x  vs spare$" "$tmp/pair" && grep -Eq "^slow .* 1\.250x  vs spare$" "$tmp/pair" && grep -Eq "^baseline\.spare +1\.0000" "$tmp/pair" \
	&& pass "baselines: bench --pair times every stage beside that baseline, and runs it" || { fail "baselines: bench --pair"; grep -E "^(slow|other|baseline)" "$tmp/pair"; }
grep -Eq "slow +CONTRADICTED +time_vs_baseline < 0.6 +time_vs_baseline=1$" "$tmp/pair" \
	&& pass "baselines: under --pair a stage's claims take its own baseline's run, not the other pair" || { fail "baselines: claims under --pair"; grep -A4 "^Claims" "$tmp/pair"; }
CC_FAKE=ok CC_FAKE_RATIO=1.25 $B $L bench duo --pair spare --reps 3 --json 2>/dev/null | python3 -c '
import json, sys
try:
    st = [r for r in json.load(sys.stdin)["results"] if not r["stage"].startswith("baseline")]
except Exception as e:
    st = []
ok = len(st) == 3 and all(r.get("baseline") == "baseline.spare" and r.get("pair") == "baseline" for r in st)
print("%s baselines: --pair NAME (without baseline.): each stage result names the pair it was timed with (%d stages)" % ("PASS" if ok else "FAIL", len(st)))'
expect "baselines: --pair names an unknown baseline" 2 "--pair: no baseline 'nope' in duo \(it has: baseline, baseline.fast, baseline.wide, baseline.spare\)" $B $L bench duo --pair nope
expect "baselines: --pair is bench's" 2 "--pair is bench's" $B $L run duo/slow --pair baseline
expect "baselines: --pair does not apply to a recording" 2 "--pair times new pairs" $B $L --replay "$tmp/bench" bench duo --pair spare
# JSON: each stage's result names its baseline and title; a recording of it, its times changed (the
# lesson's baseline 2 ms, baselines.fast 0.5 ms, the stages 1 ms), replayed: each stage's claims use
# its own baseline (slow: 1/2 < 0.6 holds; quick: 1/0.5 > 1.5 holds).
CC_FAKE=ok $B $L bench duo --reps 3 --json >"$tmp/duo.json" 2>/dev/null
python3 - "$tmp/duo.json" "$tmp/replay.json" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("FAIL baselines: no JSON (%s)" % e); sys.exit(0)
by = {r["stage"]: r for r in d["results"]}
ok = by.get("quick", {}).get("baseline") == "baseline.fast" and by["quick"].get("baseline_title") == "cudaMemcpy named fast" \
    and by.get("slow", {}).get("baseline") == "baseline" and by.get("other", {}).get("baseline") == "baseline.wide"
print("%s baselines: --json names each stage's baseline and its title" % ("PASS" if ok else "FAIL"))
for r in d["results"]:
    r["ms_median"] = r["ms_min"] = r["ms_max"] = {"baseline": 2.0, "baseline.fast": 0.5}.get(r["stage"], 1.0)
json.dump(d, open(sys.argv[2], "w"))
PY
unset CUDACLIMB_WORKER
$B $L --replay "$tmp/replay.json" bench duo >"$tmp/claims" 2>&1
grep -Eq "slow +holds +time_vs_baseline < 0.6 +time_vs_baseline=0.5" "$tmp/claims" && grep -Eq "quick +holds +time_vs_baseline > 1.5 +time_vs_baseline=2" "$tmp/claims" \
	&& pass "baselines: each stage's claims use its own baseline" || { fail "baselines: claims per baseline"; grep -A6 "^Claims" "$tmp/claims"; }
# A recording from before named baselines (no baseline fields) still replays.
python3 - "$tmp/replay.json" "$tmp/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    r.pop("baseline", None); r.pop("baseline_title", None)
json.dump(d, open(sys.argv[2], "w"))
PY
expect "baselines: a recording without the baseline fields replays" 0 "slow +holds +time_vs_baseline < 0.6" $B $L --replay "$tmp/old.json" bench duo
# The loader: each mistake at its file:line:col.
mkdir -p "$tmp/bad/lessons" "$tmp/bad/kernels/duo"
cp tests/fixtures/baselines/kernels/duo/copy.cu "$tmp/bad/kernels/duo/"
bad() {   # bad NAME PATTERN PYTHON-EDIT: the fixture edited, loaded
	python3 - tests/fixtures/baselines/lessons/duo.yaml "$tmp/bad/lessons/duo.yaml" "$3" <<'PY'
import sys
s = open(sys.argv[1]).read()
exec(sys.argv[3])
open(sys.argv[2], "w").write(s)
PY
	expect "baselines: load error: $1" 4 "$2" $B --lessons "$tmp/bad" list
}
bad "a stage names an unknown baseline" "duo.yaml:[0-9]+:15: no baseline 'fats' in this lesson's baselines: \(known: fast, wide, spare\)" \
	's = s.replace("baseline: fast", "baseline: fats")'
bad "an entry without its library" "duo.yaml:25:5: baselines entry 'fast' needs 'library'" \
	's = s.replace("    library: memcpy\n    args: { dst: y, src: x, bytes: \"4 * n\" }\n  wide", "    args: { dst: y, src: x, bytes: \"4 * n\" }\n  wide")'
bad "an entry without its args" "duo.yaml:25:5: baselines entry 'fast' needs 'args'" \
	's = s.replace("    library: memcpy\n    args: { dst: y, src: x, bytes: \"4 * n\" }\n  wide", "    library: memcpy\n  wide")'
bad "a stage names a baseline, the lesson has no baselines:" "duo.yaml:[0-9]+:15: baseline: fast names a baseline, but the lesson has no baselines: map" \
	'i = s.index("baselines:\n"); j = s.index("stages:"); s = s[:i] + s[j:]; s = s.replace("    baseline: wide\n", "")'
bad "an entry's name that is not an identifier" "duo.yaml:[0-9]+:3: baseline name 'no-dash' is not an identifier" \
	's = s.replace("  wide:\n", "  no-dash:\n").replace("baseline: wide", "baseline: fast")'
bad "a bad tolerance of an entry" "duo.yaml:[0-9]+:23: tolerances cannot be negative" \
	's = s.replace("tolerance: { abs: 0.5 }", "tolerance: { abs: -1 }")'
bad "an unknown argument of its library" "duo.yaml:[0-9]+:[0-9]+: library memcpy takes no argument 'count'" \
	's = s.replace("args: { dst: y, src: x, bytes: \"4 * n\" }\n  wide", "args: { dst: y, src: x, bytes: \"4 * n\", count: n }\n  wide")'
# A lesson with baselines: but no baseline: loads; its stages without baseline: have none.
bad_ok() { python3 - tests/fixtures/baselines/lessons/duo.yaml "$tmp/bad/lessons/duo.yaml" <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.index("baseline:\n  title"); j = s.index("baselines:\n")
open(sys.argv[2], "w").write(s[:i] + s[j:])
PY
}
bad_ok
expect "baselines: named ones without a lesson baseline: load" 0 "duo +3 stages" $B --lessons "$tmp/bad" list
