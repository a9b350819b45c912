#!/bin/sh
# watch moves on (issue #31 item 11), with no GPU: the fake worker (tests/fake_worker.c) answers every
# run, CC_FAKE_RATIO=1 makes each try pass. Without a terminal a pass moves on to the next exercise by
# itself, saying so; in a terminal (a private tmux) h shows a hint without a try, r runs again and says
# "verdict in N ms" (no save), and n after a pass starts the next exercise from its starter.
. tests/lib.sh
FX=tests/fixtures/exercise
tmp=$(mktemp -d)
sock=$tmp/tmux.sock
cleanup() { tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 1' HUP INT TERM PIPE
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "watch: the fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
unset CUDACLIMB_COURSE CUDACLIMB_RUNNER
export CUDACLIMB_WORKER="$tmp/fake" CC_FAKE_RATIO=1

# Without a terminal: the first exercise passes, the next one starts by itself.
mkdir -p "$tmp/w1/demo"
cp $FX/learner/right.cu "$tmp/w1/demo/scale.cu"
CUDACLIMB_WORK="$tmp/w1" timeout 60 $B --lessons $FX watch demo/scale </dev/null >"$tmp/auto.out" 2>&1 &
wp=$!
t=0; while [ $t -lt 300 ] && ! grep -q "last exercise" "$tmp/auto.out"; do sleep 0.1; t=$((t + 1)); done
kill -TERM $wp 2>/dev/null; wait $wp
grep -q "^Passed. Next: demosum/sum" "$tmp/auto.out" && grep -q "^Moving on to demosum/sum" "$tmp/auto.out" \
	&& pass "watch: without a terminal, a pass moves on to the next exercise, saying so" || { fail "watch: no move on"; tail -12 "$tmp/auto.out" | sed 's/^/    /'; }
[ -f "$tmp/w1/demosum/sum.cu" ] && cmp -s "$tmp/w1/demosum/sum.cu" $FX/kernels/demosum/exercises/sum.cu \
	&& pass "watch: the next exercise starts from its starter" || fail "watch: no starter copied for demosum/sum"
grep -q "watching $tmp/w1/demosum/sum.cu" "$tmp/auto.out" && pass "watch: then watches the next exercise's file" || fail "watch: not watching the next file"
grep -q "Passed, and that was the last exercise" "$tmp/auto.out" && pass "watch: the last exercise says so" || fail "watch: no last-exercise line"
grep -q "without a terminal, a pass moves on to the next exercise by itself; Ctrl-C ends" "$tmp/auto.out" \
	&& pass "watch: without a terminal it says how it ends (a pass moves on; Ctrl-C)" || fail "watch: not said how it ends"
grep -q "this was the last exercise: Ctrl-C ends" "$tmp/auto.out" && pass "watch: ... and after the last one, that only Ctrl-C ends it" \
	|| fail "watch: no end line after the last exercise"

# In a terminal: keys.
if ! command -v tmux >/dev/null 2>&1; then skip "watch: keys in a terminal (no tmux)"; exit 0; fi
mkdir -p "$tmp/w2/demo"
cp $FX/learner/right.cu "$tmp/w2/demo/scale.cu"
# The program starts once the pane's output is piped to a file (nothing is lost before).
tmux -S "$sock" -f /dev/null new-session -d -x 120 -y 50 \
	"while [ ! -e '$tmp/go' ]; do sleep 0.05; done; env CUDACLIMB_WORK='$tmp/w2' CUDACLIMB_WORKER='$tmp/fake' CC_FAKE_RATIO=1 $B --lessons $FX watch demo/scale; echo exit=\$?; sleep 30" \
	|| { skip "watch: tmux would not start"; exit 0; }
tmux -S "$sock" pipe-pane -t 0 "cat >>'$tmp/tty.raw'"
touch "$tmp/go"
wait_for() {   # pattern: up to 15 s, in the output without its carriage returns
	t=0; while [ $t -lt 150 ]; do
		tr -d '\r' <"$tmp/tty.raw" >"$tmp/tty.out" 2>/dev/null
		grep -Eq -- "$1" "$tmp/tty.out" && return 0
		sleep 0.1; t=$((t + 1))
	done
	return 1
}
keys() { tmux -S "$sock" send-keys -t 0 "$@"; }
wait_for "n starts it" && pass "watch: in a terminal, a pass offers the next exercise (n)" || { fail "watch: no offer of the next exercise"; tail -8 "$tmp/tty.out" | sed 's/^/    /'; }
keys h
wait_for "^Hint 1 of 2" && pass "watch: h shows a hint" || fail "watch: h showed no hint"
sleep 0.5
[ "$(grep -c '^(try [0-9]*) watching' "$tmp/tty.out")" = 1 ] && ! grep -q "^(try 2)" "$tmp/tty.out" \
	&& pass "watch: h is not a try (the counter stays at 1)" || { fail "watch: h advanced the try counter"; grep "^(try" "$tmp/tty.out" | sed 's/^/    /'; }
keys r
wait_for "^\(try 2\)" && grep -Eq "^verdict in [0-9]+ ms$" "$tmp/tty.out" && ! grep -q "after the save" "$tmp/tty.out" \
	&& pass "watch: r runs again and says 'verdict in N ms', with no save named" || { fail "watch: r"; grep -E "verdict|^\(try" "$tmp/tty.out" | sed 's/^/    /'; }
keys n
wait_for "watching $tmp/w2/demosum/sum.cu" && [ -f "$tmp/w2/demosum/sum.cu" ] \
	&& pass "watch: n starts the next exercise (its starter copied, its file watched)" || { fail "watch: n did not move on"; tail -8 "$tmp/tty.out" | sed 's/^/    /'; }
keys q
wait_for "^exit=" && grep -q "^exit=0" "$tmp/tty.out" && pass "watch: q ends it with the last verdict's exit code" || { fail "watch: q: $(grep ^exit= "$tmp/tty.out")"; }
