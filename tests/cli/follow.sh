#!/bin/sh
# check.follow (issue #32, lessons/README.md "Checks and baselines"): the reference runs at the checked
# run's value of a tunable that changes the answer, or the run is refused; each checked run names what
# it was compared with. With the fake worker (no GPU); tests/gpu/follow.sh runs it for real.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "follow: the fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
export CUDACLIMB_WORKER=$tmp/fake CC_FAKE=ok
L="--lessons tests/fixtures/follow"
expect "follow: a set value reaches the reference" 0 "checked against the reference \(plain SCALE=2\)" $B $L run follow/wide --set SCALE=2 --reps 3
expect "follow: ... and so does the checked stage's default" 0 "checked against the reference \(plain SCALE=2\)" $B $L run follow/wide --reps 3
expect "follow: the reference stage itself at a set value" 0 "checked against the reference \(plain SCALE=2\)" $B $L run follow/plain --set SCALE=2 --reps 3
expect "follow: a tunable not followed stays at the reference's default" 0 "checked against the reference \(plain SCALE=1\)" $B $L run follow/plain --reps 3
expect "follow: a value the reference does not allow is refused, saying why" 2 \
	"cannot check this run: the reference stage plain must run at SCALE=3 \(check.follow\), and SCALE = 3 is not allowed" \
	$B $L run follow/wide --set SCALE=3 --reps 3
$B $L run follow/wide --set SCALE=2 --reps 3 --json >"$tmp/j" 2>&1
grep -q '"reference": *"plain SCALE=2"' "$tmp/j" && pass "follow: --json names the reference and its settings" || { fail "follow: --json reference"; head -5 "$tmp/j"; }
# Without follow, the same run is compared with the reference at its default (the old behaviour).
cp -r tests/fixtures/follow "$tmp/nf" && sed -i '/^  follow:/d' "$tmp/nf/lessons/follow.yaml"
expect "follow: without it the reference keeps its default" 0 "checked against the reference \(plain SCALE=1\)" $B --lessons "$tmp/nf" run follow/wide --set SCALE=2 --reps 3
# Bad follow lists: file:line:col and a reason; the other lessons still load.
bad() {   # NAME SED-EXPRESSION EXPECTED-MESSAGE
	rm -rf "$tmp/b" && cp -r tests/fixtures/follow "$tmp/b" && sed -i "$2" "$tmp/b/lessons/follow.yaml"
	cp tests/fixtures/exercise/lessons/*.yaml "$tmp/b/lessons/" && cp -r tests/fixtures/exercise/kernels/* "$tmp/b/kernels/"
	expect "follow: $1" 4 "follow.yaml:[0-9]+:[0-9]+: $3" $B --lessons "$tmp/b" check --arch sm_90
	$B --lessons "$tmp/b" list 2>/dev/null | grep -q "^ *demo" && pass "follow: $1: the other lessons still load" || fail "follow: $1: the other lessons did not load"
}
bad "a name that is no tunable of the reference" 's/follow: \[SCALE\]/follow: [BLOCK]/' "follow: 'BLOCK' is not a tunable of the reference stage 'plain'"
bad "a name only the reference has" '/^      BLOCK:/!s/^      SCALE: { values: \[1, 2, 3\], default: 2 }/      FACTOR: { values: [1, 2, 3], default: 2 }/' "follow: no stage but the reference has a tunable 'SCALE'"
bad "not a list" 's/follow: \[SCALE\]/follow: { a: 1 }/' "follow must be a list"
