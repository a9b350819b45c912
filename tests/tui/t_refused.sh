# A refused tunable is never taken (issue #31 item 4): a value the lesson's constraints refuse stays
# in the edit field with its reason, and never reaches the stage's values, the code pane's -D line,
# the progress file or a run; a saved value that is now refused is dropped with a notice and r
# works; results of other values than those shown are marked stale; under a replay a what-if the
# recording lacks keeps the recorded result.
. "$(dirname "$0")/lib.sh"

P=$XDG_STATE_HOME/cudaclimb/progress
mkdir -p "$XDG_STATE_HOME/cudaclimb"
# sgemm/warptile with BM=64 and WM=128: "the warp tile WM x WN must divide the block tile BM x BN"
printf 'cudaclimb-progress 1\nlast sgemm warptile\nset sgemm warptile BM 64\nset sgemm warptile WM 128\n' >"$P"
start 80 24 -- --lessons "$ROOT"
check "saved refused value: a one-line notice" wait_for "saved WM=128 of warptile ignored"
keys r
check "saved refused value: r works (no refusal)" wait_re "resources|compile failed" 120
check_not "saved refused value: no 'refused' after r" shows "refused"
keys Tab Tab
check "saved refused value: the default is used" wait_re "│ WM +64 "
keys j j j Right
check "arrow onto a refused value: it stays in the edit field" wait_re "WM += 128_"
check "... with its reason in the pane" shows "✗ the warp tile WM x WN must"
check "... and in the status line" shows "^ the warp tile WM x WN must divide"
keys Left
check "an arrow from the refused value goes on from it (64, allowed)" wait_re "│▸WM +64 "
check "... and the reason is gone" wait_gone "the warp tile WM x WN must"
keys Right
wait_for "= 128_" >/dev/null
keys Escape q
check "quit after a refused value" wait_for "EXITED rc=0"
check_not "the refused value is not saved" grep -q "set sgemm warptile WM 128" "$P"
check "the value taken is saved" grep -q "set sgemm warptile WM 64" "$P"

# The code pane's -D line shows the values compiled, never the refused one (wider, to read it).
start 140 30 -- --lessons "$ROOT"
wait_for "Kernel warptile.cu" >/dev/null
keys Tab Tab j j j Right
wait_for "= 128_" >/dev/null
check "code pane: -D line has the stage's value" shows "passed as -D: .*WM=64"
check_not "code pane: never the refused one" shows "WM=128"
keys Escape q
wait_for "EXITED" >/dev/null

# Replay: a what-if the recording lacks (n halved) is not a no_gpu result over the recorded one.
start 140 30 XDG_STATE_HOME=$TMP/replay-state -- --replay "$ROOT/tests/tui/fixtures/replay-bandwidth.json" --lessons "$ROOT"
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "Kernel strided.cu" >/dev/null
keys r
wait_for "time      4.425 ms" >/dev/null
keys Tab Tab j j Left
check "replay what-if: refused with the reason" wait_for "a what-if needs a GPU; this is a replay"
check "replay what-if: the recorded result is marked stale" wait_for "from n=67108864 a=2 BLOCK=256 STRIDE=32: stale"
check "replay what-if: the recorded numbers stay" shows "time      4.425 ms"
check_not "replay what-if: the ladder does not say no_gpu" shows "no_gpu"
keys q
check "replay: quit" wait_for "EXITED rc=0"
