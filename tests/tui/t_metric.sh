# Each lesson is scored in its own metric (score_metric_of) everywhere: sgemm in GFLOP/s in
# the lesson list, its stage lines, the ladder and first in the measurements; bandwidth in GB/s.
. "$(dirname "$0")/lib.sh"

mkdir -p "$XDG_STATE_HOME/cudaclimb"
cat >"$XDG_STATE_HOME/cudaclimb/progress" <<'P'
cudaclimb-progress 1
last - -
stage sgemm naive seen=1 compiled=1 passed=0 failed=0 best_ms=275 best_gbps=68.6 best_gflops=500
stage bandwidth coalesced seen=1 compiled=1 passed=1 failed=0 best_ms=0.27 best_gbps=2900 best_gflops=480
P
start 120 40 -- --replay "$ROOT/tests/tui/fixtures/replay-sgemm.json"
wait_for "FP32 matrix multi" >/dev/null
check "list: a compute-bound lesson's best in GFLOP/s" shows "FP32 matrix multiply.* best 500 GFLOP/s"
check "list: a memory-bound lesson's best in GB/s" shows "Memory bandwidth with.* best 2900 GB/s"
check_not "list: no GB/s for sgemm" shows "FP32 matrix multiply.*GB/s"
goto_lesson "FP32 matrix multi"
check "list: the stage lines in GFLOP/s" wait_re "1 naive .*275.000 ms +500 GFLOP/s"
keys Enter
wait_for "sgemm 1/10" >/dev/null
check "ladder: scored in GFLOP/s" shows "GFLOP/s vs peak"
check "ladder: the saved best in GFLOP/s before a run" shows "1 naive +[^ ]+ +1%"
keys r
wait_re "time +275.000 ms" >/dev/null
check "measurements: the lesson's metric first" sh -c "tmux -L $SOCK capture-pane -p -t cc | grep -A1 'time  *275.000 ms' | tail -1 | grep -q 'GFLOP/s .* 500'"
keys a
check "ladder: the baseline in GFLOP/s" wait_re "2 coalesced +[^ ]+ +9% x0.12"
keys q
wait_for "EXITED rc=0" >/dev/null
