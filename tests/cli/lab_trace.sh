#!/bin/sh
# scripts/lab-trace.py, which reads a lab's trace of GPU holds for tests/gpu/lab_*.sh and
# scripts/gpu-x2.sh, on made-up traces of two GPUs: an overlap planted on one GPU is found there and
# not on the other; each GPU's longest and p99 wait; a GPU of the box that got no holds fails (named,
# or counted) and is shown with 0; the first hold after the hogs, per GPU; a trace of the old format (no
# GPU). Then a real trace: queue probes on two GPUs' queues at once (tests/queue_probe.c, no GPU
# needed) read with both GPUs expected.
. tests/lib.sh
if ! command -v python3 >/dev/null; then skip "lab trace: python3 is needed"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; Bu=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb; C=cccccccccccccccccccccccccccccccc
lt() { python3 scripts/lab-trace.py "$@" 2>&1; }
# "run ASK START END PID UID GPU": on A, 200 holds one after another, waiting 10 ms, 20 ms, ... 2 s
# (longest 2.0 s, p99 the 199th: 1.99 s); on B, 3 holds.
python3 - "$tmp/two" "$A" "$Bu" <<'PY'
import sys
out, a, b = open(sys.argv[1], "w"), sys.argv[2], sys.argv[3]
t = 10**12
for i in range(1, 201):
    start = t + i * 10**9
    out.write("run %d %d %d %d 2001 %s\n" % (start - i * 10**7, start, start + 5 * 10**8, 1000 + i, a))
for i in range(3):
    start = t + 500 * 10**9 + i * 10**9
    out.write("run %d %d %d %d 2002 %s\n" % (start - 10**9, start, start + 5 * 10**8, 2000 + i, b))
PY
out=$(lt "$tmp/two" "$tmp/sum" "t")
[ "$out" = "PASS t: no two holds on one GPU overlap (203 holds traced, 0 overlapping)" ] && pass "lab trace: two GPUs, no overlap: one PASS line, as before" \
	|| fail "lab trace: two GPUs without an overlap: '$out'"
grep -Eq "^GPU aaaaaaaaaaaaaaaa +200 holds +0 overlapping, longest wait 2\.0 s, p99 2\.0 s, median 1\.01 s$" "$tmp/sum" \
	&& grep -Eq "^GPU bbbbbbbbbbbbbbbb +3 holds +0 overlapping, longest wait 1\.0 s, p99 1\.0 s" "$tmp/sum" \
	&& grep -q "^longest wait 2.0 s, p99 2.0 s, median 1.00 s (203 holds)$" "$tmp/sum" \
	&& pass "lab trace: per GPU the holds, overlaps and waits; then every hold's waits" || { fail "lab trace: the summary"; sed 's/^/    /' "$tmp/sum"; }
# p99 below the longest: one hold on A waits 30 s
sed '1s/^run [0-9]*/run 970000000000/' "$tmp/two" >"$tmp/slow"
lt "$tmp/slow" "$tmp/sum" "t" >/dev/null
grep -Eq "^GPU aaaaaaaaaaaaaaaa +200 holds +0 overlapping, longest wait 31\.0 s, p99 2\.0 s" "$tmp/sum" && pass "lab trace: p99 is not the longest wait" \
	|| { fail "lab trace: p99 against the longest"; sed 's/^/    /' "$tmp/sum"; }

# An overlap planted on B: found there, not on A.
echo "run 1500000000000 1500200000000 1500300000000 3000 2003 $Bu" >>"$tmp/two"   # inside B's first hold
out=$(lt "$tmp/two" "$tmp/sum" "t")
[ "$out" = "FAIL t: no two holds on one GPU overlap (204 holds traced, 1 overlapping)" ] && grep -Eq "^GPU bbbbbbbbbbbbbbbb +4 holds +1 overlapping" "$tmp/sum" \
	&& grep -Eq "^GPU aaaaaaaaaaaaaaaa +200 holds +0 overlapping" "$tmp/sum" && pass "lab trace: an overlap on one GPU fails, and is counted on that GPU" \
	|| { fail "lab trace: the planted overlap: '$out'"; sed 's/^/    /' "$tmp/sum"; }
sed -i '$d' "$tmp/two"

# The box's GPUs expected: both held passes; a third named and never held fails, and is shown with 0.
expect "lab trace: every GPU of the box got holds" 0 "^PASS t: 2 of the 2 GPUs got holds$" lt "$tmp/two" "$tmp/sum" t "$A,$Bu"
expect "lab trace: ... the UUIDs given one a line, as nvidia-smi's" 0 "^PASS t: 2 of the 2 GPUs got holds$" lt "$tmp/two" "$tmp/sum" t "$(printf '%s\n%s\n' $A $Bu)"
expect "lab trace: a GPU of the box with no holds fails, named" 0 "^FAIL t: 2 of the 3 GPUs got holds \(no holds: cccccccccccccccc\)$" lt "$tmp/two" "$tmp/sum" t "$A $Bu $C"
grep -Eq "^GPU cccccccccccccccc +0 holds +0 overlapping" "$tmp/sum" && pass "lab trace: ... and shown with 0 holds" || { fail "lab trace: the idle GPU's line"; sed 's/^/    /' "$tmp/sum"; }
expect "lab trace: a count of GPUs: 2 of 2" 0 "^PASS t: 2 of the 2 GPUs got holds$" lt "$tmp/two" "$tmp/sum" t 2
expect "lab trace: a count of GPUs: 2 of 3 fails" 0 "^FAIL t: 2 of the 3 GPUs got holds \(no holds: 1 GPU not in the trace\)$" lt "$tmp/two" "$tmp/sum" t 3
out=$(lt "$tmp/two" "$tmp/sum" t - 2>&1)
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && pass "lab trace: '-' expects nothing (one line)" || fail "lab trace: '-': $out"

# The hogs: each GPU's first hold after them. A's holds run from 10^12 + 1 s, B's from 10^12 + 500 s.
expect "lab trace: every GPU served runs after the hogs" 0 "^PASS t: every GPU served runs after the hogs took its line \(aaaaaaaaaaaaaaaa: 1\.0 s after, bbbbbbbbbbbbbbbb: 500\.0 s after\)$" \
	lt "$tmp/two" "$tmp/sum" t "$A,$Bu" 1000000000000
grep -Eq "^GPU bbbbbbbbbbbbbbbb .*, first hold 500\.0 s after the hogs$" "$tmp/sum" && pass "lab trace: ... the first hold after the hogs, per GPU" \
	|| { fail "lab trace: the first hold after the hogs"; sed 's/^/    /' "$tmp/sum"; }
expect "lab trace: a GPU with no hold after the hogs fails" 0 "^FAIL t: every GPU served runs after the hogs took its line \(aaaaaaaaaaaaaaaa: none, bbbbbbbbbbbbbbbb: 0\.0 s after\)$" \
	lt "$tmp/two" "$tmp/sum" t "$A,$Bu" 1500000000000
# The old format: no GPU named (one GPU, "-").
printf 'run 1 2 3 4 2001\nrun 1 3 4 5 2002\nnot a hold\n' >"$tmp/old"
expect "lab trace: a trace without the GPU" 0 "^PASS t: no two holds on one GPU overlap \(2 holds traced, 0 overlapping\)$" lt "$tmp/old" "$tmp/sum" t 1
expect "lab trace: an empty trace fails" 0 "^FAIL t: no two holds" lt /dev/null "$tmp/sum" t

# A real trace: 12 probes on each of two GPUs' queues at once, each holding 20 ms.
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/queue_probe.c src/worker/gpulock.c src/core/util.c -o "$tmp/probe" 2>"$tmp/cc.log"; then
	fail "lab trace: the queue probe did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
export CUDACLIMB_LOCK_DIR=$tmp/locks CUDACLIMB_QUEUE_TRACE=$tmp/trace
mkdir -m 700 "$CUDACLIMB_LOCK_DIR"; : >"$CUDACLIMB_QUEUE_TRACE"
i=0; while [ $i -lt 12 ]; do "$tmp/probe" "$A" 20 "$tmp/log" 2>/dev/null & "$tmp/probe" "$Bu" 20 "$tmp/log" 2>/dev/null & i=$((i + 1)); done
wait
out=$(lt "$CUDACLIMB_QUEUE_TRACE" "$tmp/sum" "t" "$A,$Bu")
printf '%s\n' "$out" | grep -q "^PASS t: no two holds on one GPU overlap (24 holds traced, 0 overlapping)$" && printf '%s\n' "$out" | grep -q "^PASS t: 2 of the 2 GPUs got holds$" \
	&& grep -Eq "^GPU aaaaaaaaaaaaaaaa +12 holds +0 overlapping" "$tmp/sum" && grep -Eq "^GPU bbbbbbbbbbbbbbbb +12 holds +0 overlapping" "$tmp/sum" \
	&& pass "lab trace: the queue's own trace of two GPUs at once: 12 holds on each, none overlapping" \
	|| { fail "lab trace: the queue's trace of two GPUs: $out"; sed 's/^/    /' "$tmp/sum"; }
