# At the minimum size (80x24): measurement lines are cut with an ellipsis, dropping the less
# important parts first; the footer always offers help (? and F1) and lists z; a diagnosis below
# the visible part of the explanation says it is there.
. "$(dirname "$0")/lib.sh"

start 80 24 -- --replay "$ROOT/tests/tui/fixtures/replay-sgemm.json"
wait_for "FP32 matrix multi" >/dev/null
check "list footer: help" shows "\? help"
open_lesson "FP32 matrix multi" sgemm
check "stage footer: help at 80 columns" shows "(F1/)?\? help"
check "stage footer: z zoom" shows "z zoom"
keys r
wait_re "time +275.000 ms" >/dev/null
# each line of the measurements whole, or cut with an ellipsis, less important parts left out first
check "measurements: time, the minimum left out" shows "time +275.000 ms +±1.0%(, min [0-9.]+ ms)?(, 10 reps)? +│$"
check "measurements: GFLOP/s, the lesson's metric" shows "GFLOP/s +[^ ]+ 500 +│$"
check "measurements: its peak" shows " 0.7% of peak 66908( \(FP32\))? +│$"
check "measurements: GB/s" shows "GB/s +[^ ]+ 68.6 2% of peak 3352 +│$"
check "measurements: occupancy and its limit" shows "occupancy 100%( theoretical)?, limit: warps per SM +│$"
check "measurements: resources" shows "resources 32 regs  smem 0 B  no spills( +block 1024)?( +sm_90)? +│$"
check "measurements: counters" shows "counters  DRAM 8.43x model( +L2 hit 51%)?( +bank conflicts 0)?( +warp 32.0/32)?( +long_scoreboard 71%)?…? +│$"
check "explanation: the diagnosis below is announced" shows "diagnosis below \(2\)"
keys G
check "explanation: the diagnosis can be scrolled to" wait_for "(long_scoreboard 71% of"
check_not "... and then the hint goes" shows "diagnosis below"
keys q
wait_for "EXITED rc=0" >/dev/null

# No GPU: a long status message still leaves room for help.
start 80 24
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "bandwidth 1/4" >/dev/null
keys r
wait_for "no GPU, compiling only" >/dev/null
check "a long message: help still in the footer" shows "\? help *$"
keys q
wait_for "EXITED rc=0" >/dev/null
