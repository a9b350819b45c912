# The tune view (T, issue #49 item 4) at 80x24 on the fake worker (tests/fake_worker.c), which times
# tests/fixtures/tune's land/land as a landscape with a known best (CC_FAKE_TIME_AT) and a worse valley
# nearer the defaults (CC_FAKE_TIME_TRAP): T starts the search (ils: 21168 allowed settings), the
# progress bar and the time left, the best found, the heat map over two tunables and its axes; Space
# stops; Enter applies the cursor's cell to the stage; S keeps the best as this GPU's ("tuned on this
# GPU" when the stage opens again), R resets; the help lists T; without a GPU T says why.
. "$(dirname "$0")/lib.sh"

cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -I"$ROOT/src/core" -I"$ROOT/src/lesson" -I"$ROOT/src/engine" -I"$ROOT/src/runner" -I"$ROOT/src/worker" -I$cuda/include "$ROOT/tests/fake_worker.c" "$ROOT/src/core/result.c" "$ROOT/src/core/util.c" -o "$TMP/fake" 2>"$TMP/cc.log"; then
	fail "the fake worker did not build" "$(head -3 "$TMP/cc.log")"; exit 0
fi
FAKE="CUDACLIMB_WORKER=$TMP/fake CC_FAKE=ok CC_FAKE_TIME_AT=A=64,B=4,C=32,D=16,E=2 CC_FAKE_TIME_TRAP=A=4,B=16,C=8,D=4,E=16"

# open_land [VAR=value...]: the fixture's only stage, at 80x24.
open_land() {
	start 80 24 "$@" -- --lessons "$ROOT/tests/fixtures/tune"
	wait_for "Tune fixture" >/dev/null
	keys Enter
	wait_for "Kernel land.cu" >/dev/null
}

# shellcheck disable=SC2086
open_land $FAKE
keys '?'
wait_for "Keys (Tab: glossary" >/dev/null
i=0; while [ $i -lt 12 ] && ! screen | grep -qF "tune: best settings"; do keys j; sleep 0.1; i=$((i + 1)); done
check "help lists T" shows "T +tune: best settings"
keys Escape
wait_gone "Keys (Tab: glossary" >/dev/null
keys T
check "T opens the tune view: the strategy and the space" wait_for "Tune land/land: ils over 5 tunables, 21168 allowed (11600 refused)"
check "... the progress and the time left" wait_re "[0-9]+ of 21168 tried, [0-9]+ ok; [0-9]+ s left of 60"
check "... the heat map's axes" shows "x the defaults' time: B across, A down, the rest at the best"
check "... the best found (the landscape's, x1.50) past the trap (x1.36)" wait_for "best x1.50 the defaults (trial" 40
check "... named" shows "A=64 B=4 C=32 D=16 E=2"
check "... its cell marked in the map" wait_re "^ +64 .* 1\.50\* "
keys Space
check "Space stops the search, the results stay" wait_re "[0-9]+ of 21168 tried, [0-9]+ ok, in [0-9]+ s: stopped \(Space\)"
keys x
check "x moves the across axis" wait_for "C across, A down"
keys y
check "y moves the down axis" wait_for "C across, B down"
keys b
check "b: the cursor at the best, said below the map" wait_for "A=64 B=4 C=32 D=16 E=2: x1.500 the defaults' time; Enter applies it"
keys Left
check "... a step aside: the cell's own setting" wait_re "A=64 B=4 C=16 D=16 E=2: (x[0-9.]+ the defaults' time|not tried)"
keys Right Enter
check "Enter applies the cell to the stage and reruns it" wait_for "tunables passed as -D: A=64 B=4 C=32 D=16 E=2"
check "... the stage says so" shows "set from the tune view: A=64 B=4 C=32 D=16 E=2"
keys T
check "T again: the same search, kept" wait_for "stopped (Space)"
keys S
check "S keeps the best as this GPU's" wait_for "saved as tuned on this GPU: A=64 B=4 C=32 D=16 E=2"
keys q
wait_for "EXITED rc=0" >/dev/null
grep -q "^tuned Fake_GPU land land A=64,B=4,C=32,D=16,E=2$" "$XDG_STATE_HOME/cudaclimb/progress" && pass "... in the progress file, per GPU model" \
	|| fail "... in the progress file, per GPU model" "$(grep tuned "$XDG_STATE_HOME/cudaclimb/progress")"

# shellcheck disable=SC2086
open_land $FAKE
check "the stage opens at the tuned values, saying so" wait_for "tuned on this GPU: land A=64,B=4,C=32,D=16,E=2"
keys R
check "R resets to the defaults" wait_for "tunables passed as -D: A=8 B=8 C=8 D=8 E=8"
keys q
wait_for "EXITED rc=0" >/dev/null
grep -q "^tuned Fake_GPU land land -$" "$XDG_STATE_HOME/cudaclimb/progress" && pass "... and the tuned record is reset" \
	|| fail "... and the tuned record is reset" "$(grep tuned "$XDG_STATE_HOME/cudaclimb/progress")"

if ! "$BIN" device >/dev/null 2>&1; then
	open_land
	keys T
	check "no GPU: T says why" wait_for "tune needs a GPU to time the settings"
	check_not "... and stays on the stage" shows "Tune land/land"
	keys q
else
	echo "SKIP no GPU: T says why (a GPU is here)"
fi
