# Small things a new user hits: a sweep's elapsed time, the explanation's scroll marker, the
# ladder's message after it is done, repeated titles, the first stage's diff, lesson files with
# errors and anything written on stderr while the interface is up.
. "$(dirname "$0")/lib.sh"

REPLAY="$ROOT/tests/tui/fixtures/replay-bandwidth.json"
make_tree "$TMP/tree"
cat >>"$TMP/tree/kernels/bandwidth/strided.cu" <<K
// $$ $(date +%s%N): a fresh compile, not the cache, and a slow one, so that the first is seen
extern "C" __global__ void slow_to_compile(float *p)
{
#pragma unroll
	for (int i = 0; i < 40000; i++) p[i] = p[i] * 1.0001f + p[(i * 7) % 40000];
}
K
export XDG_STATE_HOME="$TMP/state-$N"
start 100 30 -- --lessons "$TMP/tree"
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "bandwidth 1/4" >/dev/null
keys Tab Tab j s
check_not "a sweep before any run: its time counts from now, not the machine's uptime" seen_re "compiling… [0-9]{3,}s" 2
check "... and it runs" wait_re "compiling… [0-9]s|STRIDE=1 "
keys q
wait_for "EXITED rc=0" >/dev/null

export XDG_STATE_HOME="$TMP/state-$N"
start 80 24
open_lesson "FP32 matrix multi" sgemm
keys n n n n n n n n G
check "explanation scrolled to the end: 100%" wait_re "─ 100% ─"
keys z
check "zoomed: the marker stays within 100%" wait_re "─ [0-9]{1,2}% ─|─ 100% ─"
keys q
wait_for "EXITED rc=0" >/dev/null

export XDG_STATE_HOME="$TMP/state-$N"
start 80 24 -- --replay "$REPLAY" --lessons "$TMP/tree"
wait_for "Memory bandwidth with SAXPY" >/dev/null
keys Enter
wait_for "bandwidth 1/4" >/dev/null
keys a
wait_for "B memcpy" >/dev/null
check "the ladder's message goes when its jobs are done" wait_gone "running the ladder"
keys d
check "the first stage's diff: no previous stage" wait_for "No previous stage"
check_not "... not 'stage 0'" shows "stage 0"
keys q
wait_for "EXITED rc=0" >/dev/null

export XDG_STATE_HOME="$TMP/state-$N"
start 120 40
open_lesson "Parallel reduction" reduction
check "a title that starts with the stage's id is not repeated" shows "reduction 1/10  reduce0: interleaved"
check_not "... (no 'reduce0: reduce0:')" shows "reduce0: reduce0:"
keys q
wait_for "EXITED rc=0" >/dev/null

# two lesson files with errors: counted in the footer, every one listed on e
make_tree "$TMP/tree2"
printf 'lesson: broken1\ntitle: [oops\n' >"$TMP/tree2/lessons/broken1.yaml"
printf 'lesson: broken2\nstages: 42\n' >"$TMP/tree2/lessons/broken2.yaml"
export XDG_STATE_HOME="$TMP/state-$N"
start 100 30 -- --lessons "$TMP/tree2"
check "lesson errors: counted, with the key that lists them" wait_re "2 lesson files left out .*e lists them"
keys e
# broken1 shows in the footer already, so wait for the list by the second (never in the footer)
check "lesson errors: the second" wait_re "broken2.yaml:[0-9]+:[0-9]+:"
check "lesson errors: the first, with its position" shows "broken1.yaml:[0-9]+:[0-9]+:"
keys Escape
check "lesson errors: Esc closes the list" wait_gone "broken2.yaml:"
keys q
wait_for "EXITED rc=0" >/dev/null

# what a child writes on stderr (here the dynamic loader of the GPU worker) never lands on the screen
export XDG_STATE_HOME="$TMP/state-$N"
start 100 30 LD_DEBUG=statistics --
wait_for "Memory bandwidth with SAXPY" >/dev/null
wait_re "no GPU|NVIDIA" >/dev/null
check_not "stderr of the worker: not drawn over the screen" wait_for "runtime linker statistics" 2
check "... but collected and shown as a message" shows "stderr: .*"
keys q
check "quit" wait_for "EXITED rc=0"
