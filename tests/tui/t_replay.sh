# Replay (--replay FILE, answered by the engine): recorded numbers through the same gauges, the
# ladder against the peak and the baseline, a sweep with a skipped value, live mode.
. "$(dirname "$0")/lib.sh"

REPLAY="$ROOT/tests/tui/fixtures/replay-bandwidth.json"
make_tree "$TMP/tree"
sed -i '0,/values: \[64, 128, 256, 512, 1024\]/s//values: [48, 64, 128, 256, 512, 1024]/' \
	"$TMP/tree/lessons/bandwidth.yaml"
start 100 30 -- --replay "$REPLAY" --lessons "$TMP/tree"
check "replay: the recorded device" wait_for "NVIDIA H100 80GB HBM3"
check "replay: the title bar says it is a replay, of which file" shows "REPLAY of replay-bandwidth.json"
keys Enter
wait_for "Kernel strided.cu" >/dev/null
check "replay: ... and on the stage view" shows "REPLAY of replay-bandwidth.json"
keys r
check "replay: time" wait_for "time      4.425 ms"
check "replay: GB/s gauge" shows "GB/s      █[▏▎▍▌▋▊▉]?░+│░ 182"
check "replay: against the theoretical and attainable peaks" shows "5% of peak 3352, 6% of │3100 copy attainable"
check "replay: GFLOP/s" shows "GFLOP/s +░+ 30.3 0.0% of 66908"
check "replay: occupancy and limiter" shows "occupancy 100% theoretical, limit: warps per SM"
check "replay: resources" shows "resources 16 regs  smem 0 B  no spills"
check "replay: correctness" shows "check     ✓ correct"
keys a
check "ladder: every stage against the peak" wait_for "4 vectorized  "
check "ladder: baseline row" wait_for "B memcpy"
check "ladder: percent of the attainable bandwidth and ratio to the baseline" shows "2 coalesced +█+[▏▎▍▌▋▊▉]?│ +93% x0.98"
keys Tab Tab Right
check "tunable change reruns with the difference in %" wait_for "time      4.449 ms +0.6%"
check "... and in GB/s" shows "181 -0.5%"
keys Left j s
check "sweep: a bar per value" wait_for "STRIDE=1 "
check "sweep: numbers" wait_for "2700 GB/s"
check "sweep: best value" shows "STRIDE=1 .*2700 GB/s"
keys Escape k Left s
check "sweep with a broken constraint: skipped with the reason" wait_for "BLOCK=48     skipped: BLOCK must be a multiple of the"
wait_for "a=2 BLOCK=128 STRIDE=32" >/dev/null     # the rerun after Left, once the sweep is done
runs=$(screen | sed -n 's/.*history .* \([0-9]*\) runs\{0,1\}, best.*/\1/p')
keys Escape l
check "l under replay: says the results are recorded, not live" wait_for "recorded results, not live"
check_not "l under replay: no LIVE" shows "LIVE"
check_not "l under replay: no growing history" wait_re "history .* $((runs + 1)) runs" 3
keys q
check "quit" wait_for "EXITED rc=0"
check_not "replay: no progress file written" test -e "$XDG_STATE_HOME/cudaclimb/progress"
start 100 30 -- --replay "$REPLAY" --lessons "$TMP/tree"
check "replay: the title says so on the lesson list" wait_for "REPLAY of replay-bandwidth.json"
check "lesson list: replayed runs are not progress" shows "○○○○ +0/4 done"

# Wrong results, faults and hangs (recorded in the replay) show a clear message in place of the
# numbers, and the interface carries on.
keys Enter
wait_for "Kernel strided.cu" >/dev/null
keys n n n
wait_for "vectorized: 16-byte loads" >/dev/null
keys Tab Tab j Right
check "wrong result: says so" wait_for "✗ WRONG: 1048576 bad, first at 16777216"
check "wrong result: marked in the ladder" shows "4 vectorized .* wrong"
keys Right Right
check "kernel fault: clear message" wait_for "✗ the kernel faulted: an illegal memory access"
check "kernel fault: the interface carries on" shows "cudaclimb carries on"
keys Left Left Left k Right
check "hang: clear message" wait_for "✗ the kernel hung and was stopped"
keys q
check "quit after a fault" wait_for "EXITED rc=0"
