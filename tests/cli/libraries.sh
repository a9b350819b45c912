#!/bin/sh
# Library baselines without a GPU (#46 item 3): show --libraries lists every library the loader knows
# with its arguments and the lessons that call it; the GEMV fixture (tests/fixtures/gemv) loads and
# checks with cublas_sgemv as its baseline, the fake worker receives the library call, and a baseline
# that leaves out an argument or names an unknown library is refused at file:line:col.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}
G="--lessons tests/fixtures/gemv"
expect "libraries: show --libraries lists cublas_sgemv and its arguments" 0 "^  cublas_sgemv +A, x, y, m, n" $B show --libraries
expect "libraries: ... and the lessons that call each" 0 "^  cublas_sgemm +A, B, C, m, n, k +\(used by sgemm" $B show --libraries
expect "libraries: ... a tree's lessons among them" 0 "^  cublas_sgemv +A, x, y, m, n +\(used by gemv\)" $B $G show --libraries
expect "libraries: --libraries is show's" 2 "--libraries is for show" $B list --libraries
expect "libraries: show --libraries takes no lesson" 2 "show takes no operands" $B show --libraries sgemm
# every library the loader knows is in the docs' table
$B show --libraries | sed -n 's/^  \([a-z0-9_]*\) .*/\1/p' >"$tmp/libs"
missing=""
while read -r lib; do grep -q "^| \`$lib\` |" lessons/README.md || missing="$missing $lib"; done <"$tmp/libs"
[ -s "$tmp/libs" ] && [ -z "$missing" ] && pass "libraries: lessons/README.md's table has every library" \
	|| fail "libraries: lessons/README.md's table lacks:$missing"
expect "libraries: the GEMV fixture checks clean with cublas_sgemv" 0 "^sm_90 +gemv +naive +ok .*all good" sh -c "$B $G check --arch sm_90 2>&1 | tr '\n' ' '"
expect "libraries: show names the baseline" 0 "^Baseline: cublasSgemv \(FP32\) \(cublas_sgemv\)" $B $G show gemv
if cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	expect "libraries: run gemv/baseline sends cublas_sgemv with its arguments" 0 "^baseline: plan [0-9]+ bytes cublas_sgemv " \
		env CUDACLIMB_WORKER="$tmp/fake" CC_FAKE=echo $B $G run gemv/baseline --reps 3
else
	fail "libraries: the fake worker did not build: $(head -3 "$tmp/cc.log")"
fi
# the loader's errors
mkdir -p "$tmp/t/lessons" "$tmp/t/kernels"
cp -r tests/fixtures/gemv/kernels/gemv "$tmp/t/kernels/"
sed 's/args: { A: A, x: x, y: y, m: m, n: n }/args: { A: A, x: x, y: y, m: m }/' tests/fixtures/gemv/lessons/gemv.yaml >"$tmp/t/lessons/gemv.yaml"
expect "libraries: a missing argument is refused at file:line:col" 4 "gemv\.yaml:[0-9]+:[0-9]+: library cublas_sgemv needs the argument 'n'" $B --lessons "$tmp/t" list
sed 's/library: cublas_sgemv/library: cublas_sgemvx/' tests/fixtures/gemv/lessons/gemv.yaml >"$tmp/t/lessons/gemv.yaml"
expect "libraries: an unknown library lists the known ones" 4 "gemv\.yaml:[0-9]+:[0-9]+: unknown library 'cublas_sgemvx' \(known: .*cublas_sgemv" $B --lessons "$tmp/t" list
