#!/bin/sh
# A pass counts at the lesson's sizes and the stage's default tunables (a tester, tenth session): the
# stage's own kernel is timed at the try's settings, so `--set BLOCK=64` (or one block an SM) could slow
# it and hand any kernel its ratio. With the fake worker (tests/fake_worker.c) every try of a kernel
# that compiles comes out 2x the stage's own kernel: at the default BLOCK it is a pass, at BLOCK 64 it
# is "fast enough, at your settings" and no pass is recorded.
. tests/lib.sh
FX=tests/fixtures/exercise
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "try tunables: the fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
E() { CUDACLIMB_WORKER=$tmp/fake CC_FAKE=ok CC_FAKE_RATIO=2 XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache timeout 60 $B --lessons $FX --work "$tmp/work" "$@"; }
expect "try tunables: at the default BLOCK a 2x try passes" 0 '"at_lesson_size": true' E try demo/scale $FX/learner/right.cu --json
expect "try tunables: at BLOCK 64 the same try is no pass" 0 'fast enough, at your settings.*a pass counts at the lesson.s own sizes and the stage.s default tunables' E try demo/scale $FX/learner/right.cu --set BLOCK=64
expect "try tunables: at BLOCK 64, --json says not at the lesson's size" 0 '"passed": true.*"at_lesson_size": false|"at_lesson_size": false' E try demo/scale $FX/learner/right.cu --set BLOCK=64 --json
