#!/bin/sh
# Pitched buffers (pitch: { rows, cols }, init: { copy }, { pitch: NAME } arguments) without a GPU:
# transpose's unaligned and pitched stages plan and compile at the default size and at 8191 columns,
# the kernel has a float4 load path, the starter differs from the stage's kernel where it should, a
# run through a fake worker carries the pitched buffer and its pitch argument on the wire, and misuse
# is reported at its file:line:col.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
expect "pitch: show the pitched stage" 0 "^10\. pitched - Pitched rows: cudaMallocPitch" $B show transpose/pitched --arch sm_90
expect "pitch: show the unaligned stage" 0 "^9\. unaligned - Odd row lengths" $B show transpose/unaligned --arch sm_90
expect "pitch: the kernel loads float4 where rows allow" 0 "ld\.global(\.nc)?\.v4\.f32" $B show transpose/pitched --ptx --arch sm_90
expect "pitch: the vec stage loads float4 ..." 0 "ld\.global(\.nc)?\.v4\.f32" $B show transpose/vec --ptx --arch sm_90
expect "pitch: ... and stores float4" 0 "st\.global\.v4\.f32" $B show transpose/vec --ptx --arch sm_90
out=$($B show transpose/vec --set VEC=1 --ptx --arch sm_90 2>&1); rc=$?
if [ $rc = 0 ] && printf '%s\n' "$out" | grep -q "transpose_vec" && ! printf '%s\n' "$out" | grep -q '\.v4\.f32'; then
	pass "pitch: with VEC=1 the vec stage moves one float at a time"
else fail "pitch: VEC=1: exit $rc, or v4 accesses in its PTX"; fi
# The fake worker (tests/fake_worker.c) answers every run (plan_wire has its own unit tests): here the
# engine must plan, compile and send the stage at 8191 columns.
cuda=${CUDA_HOME:-/usr/local/cuda}
if cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	expect "pitch: a run at 8191 columns reaches the worker" 0 "^pitched " env CUDACLIMB_WORKER=$tmp/fake CC_FAKE=ok $B run transpose/pitched --set cols=8191 --set rows=64 --reps 3
else
	fail "pitch: fake worker did not build: $(head -3 "$tmp/cc.log")"
fi
# Misuse, each at its line and column.
mkdir -p "$tmp/t/lessons" "$tmp/t/kernels/p"
printf 'extern "C" __global__ void k(const float *a, long long ld, float *z) { z[0] = a[0] + ld; }\n' >"$tmp/t/kernels/p/k.cu"
lesson() {   # lesson BUFFER-LINE ARGS: a one-stage lesson whose buffer p is BUFFER-LINE
	cat >"$tmp/t/lessons/p.yaml" <<EOT
lesson: p
title: P
summary: s
params: { n: { default: 64, min: 1 } }
buffers:
  x: { type: f32, count: n, init: iota }
  z: { type: f32, count: n, output: true }
$1
model: { bytes: "8 * n" }
check: { reference: s, compare: [z], tolerance: exact }
stages:
  - { id: s, title: S, kernel: k.cu, entry: k, explain: e, bottleneck: b,
      launches: [{ grid: 1, block: 32, args: $2 }] }
EOT
}
lesson '  p: { type: f32, pitch: { rows: 8, cols: 8 }, init: { copy: x } }' '[p, { pitch: p }, z]'
expect "pitch: a good pitched lesson loads" 0 "^p +1 stages" $B --lessons "$tmp/t" list
lesson '  p: { type: f32, pitch: { rows: 8, cols: 8 }, output: true }' '[x, { pitch: p }, z]'
expect "pitch: a pitched output is refused" 4 "p\.yaml:8:26: pitch: 'p' is an output; outputs are packed" $B --lessons "$tmp/t" list
lesson '  p: { type: f32, pitch: { rows: 8, cols: 8 }, host: pinned }' '[x, { pitch: p }, z]'
expect "pitch: a pitched host buffer is refused" 4 "p\.yaml:8:26: pitch: 'p' is a host buffer" $B --lessons "$tmp/t" list
lesson '  p: { type: f32, pitch: { rows: 8, cols: 8 }, init: { copy: x } }' '[x, { pitch: x }, z]'
expect "pitch: the pitch of a packed buffer is refused" 4 "p\.yaml:13:59: pitch: 'x' is packed" $B --lessons "$tmp/t" list
lesson '  p: { type: f32, pitch: { rows: 8, cols: 9 }, init: { copy: x } }' '[p, { pitch: p }, z]'
expect "pitch: a source smaller than rows x cols is refused when planned" 1 "s +refused .*p\.yaml:8:3: buffer p: init copy from x needs rows x cols = 72 elements, x has 64" $B --lessons "$tmp/t" check --arch sm_90
