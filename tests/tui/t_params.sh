# Parameters (the lesson's problem sizes) in the tunables pane: listed after the tunables, typed and
# checked as you type (their range, the stage's constraints), halved and doubled with the arrows,
# reset with R, kept between runs and across stages; and sent with every run: a replay answers
# only the exact settings, so records made for n = 2^25 (another time, other GB/s) show up only when
# the TUI sends n=33554432 with the run, the sweep and the baseline.
. "$(dirname "$0")/lib.sh"

start 100 30
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "Tunables" >/dev/null
check "parameters listed after the tunables" shows "│ Parameters \(all stages\) "
check "... n with its value and range" shows "│ n +67108864 +1\.\.2\^30 "
check "... a float parameter with its type" shows "│ a +2 +f32 "
keys Tab Tab j j
check "the cursor moves on to the parameters" wait_re "│▸n +67108864 "
check "... and the hint says what the arrows do" shows "halve/double, digits type"
keys 1 0 0 0
check "typing a parameter" wait_re "▸n += 1000_"
keys Enter
check "Enter sets it, marked as changed" wait_re "▸n +1000\* +1\.\.2\^30"
keys Right
check "Right doubles it" wait_re "▸n +2000\* "
keys Left Left
check "Left halves it" wait_re "▸n +500\* "
keys R
check "R resets the parameters too" wait_re "▸n +67108864 +1\."
keys Right
check "Right doubles the default" wait_re "▸n +134217728\* "
keys 2 0 0 0 0 0 0 0 0 0
# In the pane, under the value, as soon as the digit that makes it too big is typed. The run due
# from Right waits for the typing (it would measure the value being replaced): before, it ran or was
# refused depending on how many digits had arrived, so the status line showed this or not.
check "above the max: the range message as you type" wait_re "│ ✗ n = 2000000000 is outside its +│"
keys Enter
check "... and Enter does not commit it" shows "▸n += 2000000000_"
keys Escape
check "Esc keeps the value before" wait_re "▸n +134217728\* "
check "... and clears the message" wait_gone "outside its range"
keys j 2 . 5 Enter
check "a float parameter takes a typed value" wait_re "▸a +2\.5\* +f32"
keys Left k
wait_re "▸n +134217728" >/dev/null
check "arrows leave a float parameter alone" shows "│ a +2\.5\* "
keys j s
check "s on a parameter: sweeps are for tunables" wait_for "sweeps are for tunables; a is a lesson parameter"
keys q
check "quit" wait_for "EXITED rc=0"
check "parameter values are saved, lesson-wide" grep -q "^set bandwidth - n 134217728$" "$XDG_STATE_HOME/cudaclimb/progress"
start 100 30
check "parameter values are kept between runs" wait_re "│ n +134217728\* "
keys n
wait_for "bandwidth 2/4" >/dev/null
check "... and hold for every stage" wait_re "│ n +134217728\* "
keys Tab Tab R
check "R back at the defaults saves them as such" wait_re "│ n +67108864 "
keys q
wait_for "EXITED rc=0" >/dev/null
check "... saved as 'default'" grep -q "^set bandwidth - n default$" "$XDG_STATE_HOME/cudaclimb/progress"

# A run due (from Right) waits while a value is typed: it would measure the value being replaced.
# Before, it ran or was refused depending on how many digits had come in by then. Read where nothing
# has compiled yet (no GPU: no run on entering the stage), from a fresh start.
rm -f "$XDG_STATE_HOME/cudaclimb/progress"
start 100 30
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "Tunables" >/dev/null
if screen | grep -q "no GPU: compile only"; then
	keys Tab Tab
	i=0; while [ $i -lt 4 ] && ! screen | grep -q "│▸n "; do keys j; sleep 0.2; i=$((i + 1)); done
	keys Right j 3     # in one write: the run is due 50 ms after Right, the typing starts at once
	check "a run due waits while a value is typed" wait_re "▸a += 3_"
	sleep 1
	check "... nothing compiled during the typing" shows "Not compiled yet"
	keys Escape
	check "... and Esc lets it go ahead" wait_gone "Not compiled yet"
	check "... with the value set by Right" shows "│ n +134217728\\* "
else
	echo "SKIP a run due waits while a value is typed: read where entering a stage runs nothing (no GPU)"
fi
keys q
wait_for "EXITED rc=0" >/dev/null

# sgemm's warptile stage at 80x24: 13 tunables and 3 parameters in a pane that has room for fewer.
mkdir -p "$XDG_STATE_HOME/cudaclimb"
printf 'cudaclimb-progress 1\nlast sgemm warptile\n' >"$XDG_STATE_HOME/cudaclimb/progress"
start 80 24
check "warptile at 80x24" wait_for "sgemm 9/10"
check "rows that do not fit are counted on the frame" shows "└─+ ↓[0-9]+ ──┘"
keys Tab Tab j j j j j j j j j j j j j j   # past sgemm/warptile's 14 tunables to m
check "the pane scrolls to keep the selected parameter in view" wait_re "│▸m +4096 +1\.\.16384"
check "... with its heading" shows "│ Parameters \(all stages\)"
check "... and counts the rows above" shows "Tunables ─+ ↑[0-9]+ ─"
keys 1 0 0 0
check "m = 1000: the stage's constraint as you type" wait_for "m must be a multiple of BM"
keys Enter
check "... and Enter does not commit it" shows "▸m += 1000_"
keys Escape
wait_re "▸m +4096 " >/dev/null
keys Left Left Left Left Left Left
check "Left halves m down to BM" wait_re "▸m +128\* "
check "halving below BM is refused with the reason" wait_for "m = 64 refused: m must be a multiple of BM"
sleep 0.5   # the rerun the fifth Left scheduled starts after the refusal: the reason stays
check "... and outlives the rerun that follows" shows "m = 64 refused: m must be a multiple of BM"
check "... and skipped" shows "▸m +128\* "
keys k k k k k k k k k k k k k k
check "back up at the first tunable" wait_re "│▸BM +128 "
check "... nothing hidden above" shows "┌─ Tunables ─+┐"
keys q
wait_for "EXITED rc=0" >/dev/null

# Replay: the parameters go with every job.
sed -e '/"stage": "strided".*"settings": "n=67108864 a=2 BLOCK=256 STRIDE=32"/{p;s/"n=67108864 /"n=33554432 /;s/"ms_median": 4.42476/"ms_median": 2.21238/;s/"gbps": 182,/"gbps": 364,/}' \
    -e '/"stage": "baseline"/{s/}$/},/;p;s/"n=67108864 a=2"/"n=33554432 a=2"/;s/"pct_theoretical_bw": 88.3/"pct_theoretical_bw": 44.15/;s/"pct_attainable_bw": 95.48/"pct_attainable_bw": 47.74/;s/},$/}/}' \
    "$ROOT/tests/tui/fixtures/replay-bandwidth.json" >"$TMP/replay.json"
rm -f "$XDG_STATE_HOME/cudaclimb/progress"
start 100 30 -- --replay "$TMP/replay.json"
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "Kernel strided.cu" >/dev/null
keys r
check "replay at the default size" wait_for "time      4.425 ms"
keys Tab Tab j j Left
check "halving n reruns with n=33554432" wait_for "n=33554432 a=2 BLOCK=256 STRIDE=32"
check "... and gets that record" wait_for "time      2.212 ms"
keys k s
check "a sweep sends the parameter too" wait_re "STRIDE=32 .*364 GB/s"
keys Escape a
check "the baseline gets it too" wait_re "B memcpy .* 48%"
keys q
check "quit" wait_for "EXITED rc=0"
