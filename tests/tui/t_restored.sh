# Settings kept from the last session are said when a lesson opens, never carried over silently
# (#51 item 2): "restored from last time: a=..., coalesced BLOCK=512 - R resets". Under --replay a run
# the recording lacks names the settings that differ; the ladder and the measurements say statuses
# in words (never no_gpu); the status line counts what ran. At 80x24 and 120x40, without a GPU and
# under --replay of a shipped recording.
. "$(dirname "$0")/lib.sh"
R=$ROOT/assets/recorded/h100/h100-9a90f80-2026-11-26-bandwidth.json
start 100 30 --
wait_for "Memory bandwidth with SAXPY" >/dev/null
check_not "restored: a first session says nothing restored" shows "restored from"
keys Enter
wait_for "Tunables" >/dev/null
keys n
wait_for "bandwidth 2/4" >/dev/null
keys Tab Tab 5 1 2 Enter
wait_re "BLOCK +512\*" >/dev/null
keys j j 9 9 9 9 9 9 9 9 9 9 9 Enter
wait_re "a +99999999999\*" >/dev/null
keys q
wait_for "EXITED" >/dev/null
for size in "80 24" "120 40"; do
	start $size -- --replay "$R"
	wait_for "bandwidth 2/4" >/dev/null
	check "restored ($size, replay): said at start" wait_re "restored from last time: a=99999999999, (coalesced BLOCK=512|…|\.\.\.)"
	keys r
	check "restored ($size, replay): a miss names the settings that differ" wait_re "this run is not in the replay file"
	check "restored ($size, replay): ... recorded against asked" wait_re "a=2 BLOCK=256; asked"
	check "restored ($size, replay): the ladder row in words" wait_re "2 coalesced +not in the"
	keys a
	check "restored ($size, replay): the status line counts what ran" wait_re "ladder done: 0 of 5 ran; 5 did not \(not in the recording"
	check_not "restored ($size, replay): no raw status name" shows "no_gpu"
done
if "$BIN" device >/dev/null 2>&1; then echo "SKIP restored: without a GPU (this box has one)"; exit 0; fi
for size in "80 24" "120 40"; do
	start $size --
	wait_for "bandwidth 2/4" >/dev/null
	check "restored ($size, no GPU): said at start" wait_re "restored from last time: a=99999999999"
	keys a
	check "restored ($size, no GPU): the ladder says nothing ran" wait_for "ladder done: nothing ran (no GPU"
	check_not "restored ($size, no GPU): no raw status name" shows "no_gpu"
done
keys R
check "restored: R resets" wait_re "BLOCK +256 "
