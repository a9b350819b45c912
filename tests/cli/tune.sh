#!/bin/sh
# cudaclimb tune (issue #49): the plan without a GPU (the grid's size, what the constraints removed,
# exit 3), refused names and budgets (exit 2), and with the fake worker (tests/fake_worker.c,
# CC_FAKE_TIME_BY=BLOCK: a run at BLOCK takes 64/BLOCK ms) a full grid, a budget that stops early,
# --json, a seeded random order, and --save read back by run and show.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME=$tmp/state
# Without a GPU: the plan. sgemm/warptile: 14 tunables, 1889568 settings, 1759140 refused (sm_90's limits).
if [ "$($B device >/dev/null 2>&1; echo $?)" = 3 ]; then
	expect "tune: the plan without a GPU (exit 3)" 3 "1889568 settings in the grid of BM, BN, BK" $B tune sgemm/warptile
	expect "tune: ... how many the constraints removed" 3 "^1759140 refused by the constraints and the device's limits, 130428 allowed" $B tune sgemm/warptile
	expect "tune: ... and what the budget would try" 3 "the budget of 60 s tries about 54 of 130428" $B tune sgemm/warptile --budget 60
else
	skip "tune: the plan without a GPU (a GPU is here)"
fi
expect "tune: --plan prints the plan (exit 0)" 0 "36 settings in the grid of BM, BN, BK" $B tune sgemm/warptile --over BM,BN,BK --plan --arch sm_90
expect "tune: ... --over: the grid of those, the rest at their defaults" 0 "^1 refused by the constraints and the device.s limits, 35 allowed" $B tune sgemm/warptile --over BM,BN,BK --plan --arch sm_90
expect "tune: --over an unknown name gets the nearest (exit 2)" 2 "has no tunable 'BX'; did you mean 'BM'\?" $B tune sgemm/warptile --over BM,BX
expect "tune: a budget that is not a number (exit 2)" 2 "--budget takes a positive number of seconds, not 'soon'" $B tune sgemm/warptile --budget soon
expect "tune: a budget of 0 (exit 2)" 2 "--budget takes a positive number of seconds, not '0'" $B tune sgemm/warptile --budget 0
expect "tune: --strategy other than grid, random or ils (exit 2)" 2 "--strategy takes grid, random or ils" $B tune sgemm/warptile --strategy best
expect "tune: --strategy ils in the plan, with its seed" 0 "^strategy ils \(seed 5, --seed repeats it\): iterated local search" $B tune sgemm/warptile --over BM,BN,BK --plan --arch sm_90 --strategy ils --seed 5
expect "tune: its options elsewhere are refused" 2 "are for tune LESSON/STAGE" $B run sgemm/warptile --budget 5

cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "tune: fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
F() { CUDACLIMB_WORKER=$tmp/fake CC_FAKE=ok CC_FAKE_TIME_BY=BLOCK $B --lessons tests/fixtures/exercise "$@"; }
expect "tune: a full grid: the best first, 2x the defaults" 0 "^BLOCK=512 +0\.1250 +2\.000 " F tune demo/scale --reps 3
expect "tune: ... and the counts" 0 "tried 4 of 4 allowed \(0 refused by constraints before, 0 after compiling\): 4 right, 0 wrong, 0 too slow" F tune demo/scale --reps 3
expect "tune: a tiny budget stops after the first and says how many" 0 "tried 1 of 4 allowed .*the budget of 1e-06 s ran out with 3 untried" F tune demo/scale --reps 3 --budget 0.000001
expect "tune: --over with --set" 2 "BLOCK is both fixed by --set and tuned by --over" F tune demo/scale --over BLOCK --set BLOCK=64
F tune demo/scale --reps 3 --json >"$tmp/t.json" 2>"$tmp/t.err"
F tune demo/scale --reps 3 --json --strategy random --seed 7 >"$tmp/r1.json" 2>/dev/null
F tune demo/scale --reps 3 --json --strategy random --seed 7 >"$tmp/r2.json" 2>/dev/null
if command -v python3 >/dev/null; then
	python3 - "$tmp/t.json" "$tmp/r1.json" "$tmp/r2.json" <<'PY'
import json, sys
try:
    t, r1, r2 = (json.load(open(p)) for p in sys.argv[1:4])
except Exception as e:
    print("FAIL tune: --json does not parse (%s)" % e); sys.exit(0)
b = t["best"]
ok = (t["schema"] == 1 and t["settings"] == 4 and t["tried"] == 4 and t["ok"] == 4 and t["wrong"] == 0 and len(b) == 4
      and b[0]["settings"] == {"BLOCK": 512} and abs(b[0]["vs_defaults"] - 2) < 1e-9 and b[0]["regs"] >= 0 and "occ_limiter" in b[0])
print("%s tune: --json: counts and the best (%s)" % ("PASS" if ok else "FAIL", b[0] if b else None))
ok = t["tried_settings"] == ["BLOCK=64", "BLOCK=128", "BLOCK=256", "BLOCK=512"]
print("%s tune: grid walks the values in order (%s)" % ("PASS" if ok else "FAIL", t["tried_settings"]))
ok = r1["tried_settings"] == r2["tried_settings"] and sorted(r1["tried_settings"]) == sorted(t["tried_settings"]) and r1["seed"] == 7
print("%s tune: random with --seed repeats its order, each setting once (%s)" % ("PASS" if ok else "FAIL", r1["tried_settings"]))
PY
else
	grep -q '"schema": 1' "$tmp/t.json" && grep -q '"BLOCK": 512' "$tmp/t.json" && pass "tune: --json (grep)" || fail "tune: --json (grep)"
fi
expect "tune: --save keeps the best as this GPU's" 0 "saved as tuned on this GPU \(Fake GPU\) for demo/scale: BLOCK=512" F tune demo/scale --reps 3 --save
expect "tune: ... run starts from it and says so" 0 "tuned on this GPU \(Fake GPU\): BLOCK=512" F run demo/scale --reps 3
expect "tune: ... the run's settings are it" 0 "BLOCK=512" F run demo/scale --reps 3 --json
expect "tune: ... --set overrides it" 0 '"settings": "[^"]*BLOCK=64' F run demo/scale --reps 3 --json --set BLOCK=64
expect "tune: ... show names it" 0 "tuned on Fake_GPU .*: BLOCK=512" F show demo/scale
grep -q "^tuned Fake_GPU demo scale BLOCK=512$" "$XDG_STATE_HOME/cudaclimb/progress" && pass "tune: ... kept in the progress file, keyed by the GPU model" \
	|| { fail "tune: the progress file lacks the tuned record"; cat "$XDG_STATE_HOME/cudaclimb/progress"; }

# A search that scales (#49 item 2): tests/fixtures/tune's land/land has 21168 allowed settings of five
# tunables; the fake worker times them as a landscape (CC_FAKE_TIME_AT: 1 ms at the best, 0.1 ms more per
# step of two on each tunable; CC_FAKE_TIME_TRAP: a second valley 0.1 ms worse, closer to the defaults).
L() { CUDACLIMB_WORKER=$tmp/fake CC_FAKE=ok CC_FAKE_TIME_AT=A=64,B=4,C=32,D=16,E=2 CC_FAKE_TIME_TRAP=A=4,B=16,C=8,D=4,E=16 $B --lessons tests/fixtures/tune "$@"; }
expect "tune: the landscape's plan" 0 "^11600 refused by the constraints and the device.s limits, 21168 allowed" L tune land/land --plan
L tune land/land --reps 3 --json --strategy ils --seed 3 --budget 25 >"$tmp/i1.json" 2>"$tmp/i1.err"
L tune land/land --reps 3 --json --strategy ils --seed 3 --budget 25 --no-counters >"$tmp/i2.json" 2>/dev/null
L tune land/land --reps 3 --json --over A,B,C,D,E --budget 1 >"$tmp/g.json" 2>/dev/null
if command -v python3 >/dev/null; then
	python3 - "$tmp/i1.json" "$tmp/i2.json" "$tmp/g.json" <<'PY'
import json, sys
try:
    i1, i2, g = (json.load(open(p)) for p in sys.argv[1:4])
except Exception as e:
    print("FAIL tune: ils --json does not parse (%s)" % e); sys.exit(0)
best = {"A": 64, "B": 4, "C": 32, "D": 16, "E": 2}
b = i1["best"][0] if i1["best"] else {}
# the grid reaches the best at its place in the grid's order, A slowest
order = [(a, bb, c, d, e) for a in [1,2,4,8,16,32,64,128] for bb in [1,2,4,8,16,32,64,128] for c in [1,2,4,8,16,32,64,128]
         for d in [1,2,4,8,16,32,64,128] for e in [1,2,4,8,16,32,64,128] if a * bb <= 1024 and c <= 4 * d]
at = order.index((64, 4, 32, 16, 2)) + 1
ok = b.get("settings") == best and abs(b["vs_defaults"] - 1.5) < 1e-6 and i1["best_found_at"] <= i1["allowed"] // 20
print("%s tune: ils finds the landscape's best (%s, x%.3g) at trial %s of %s allowed; the grid reaches it at trial %d"
      % ("PASS" if ok else "FAIL", b.get("settings"), b.get("vs_defaults", 0), i1["best_found_at"], i1["allowed"], at))
ok = i1["tried_settings"][0] == "A=8 B=8 C=8 D=8 E=8" and len(set(i1["tried_settings"])) == len(i1["tried_settings"])
print("%s tune: ils starts at the defaults and tries no setting twice (%s first, %d tried)" % ("PASS" if ok else "FAIL", i1["tried_settings"][:1], i1["tried"]))
n = min(len(i1["tried_settings"]), len(i2["tried_settings"]))
ok = n > 50 and i1["tried_settings"][:n] == i2["tried_settings"][:n]
print("%s tune: ils with the same --seed walks the same way (the first %d agree)" % ("PASS" if ok else "FAIL", n))
allowed = set("A=%d B=%d C=%d D=%d E=%d" % t for t in order)
ok = all(s in allowed for s in i1["tried_settings"])
print("%s tune: ils tries only settings the constraints allow" % ("PASS" if ok else "FAIL"))
ok = len(g["tried_settings"]) < at and (not g["best"] or g["best"][0]["settings"] != best)
print("%s tune: grid within a budget does not get there (%d tried)" % ("PASS" if ok else "FAIL", len(g["tried_settings"])))
w = i1.get("why") or {}
ok = w.get("defaults", {}).get("ms_median") == 1.5 and w.get("best", {}).get("ms_median") == 1 and "changed" in w and i2.get("why") is None
print("%s tune: why: the defaults and the best run again side by side (none with --no-counters) (%s)" % ("PASS" if ok else "FAIL", w.get("changed")))
PY
fi
expect "tune: why, in text: the side by side and what changed" 0 "what changed: " L tune land/land --reps 3 --over A,B --budget 1
expect "tune: ... with the top stalls and the diagnosis rows" 0 "^  top stalls +" L tune land/land --reps 3 --over A,B --budget 1
expect "tune: the strategy says when it found the best" 0 "^strategy ils: the best found at trial [0-9]+ of [0-9]+, in " L tune land/land --reps 3 --over A,B --strategy ils --seed 1 --budget 2
