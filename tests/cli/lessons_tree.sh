#!/bin/sh
# A lesson tree beside the shipped lessons (#46 item 5): --lessons DIR adds DIR's lessons to the
# shipped ones (--lessons-only DIR, or CUDACLIMB_LESSONS_ONLY=1, is DIR alone); a lesson of DIR with a
# shipped lesson's id replaces it and a note on stderr says so; DIR's kernels see the shipped
# kernels/common (sm90.cuh) after DIR's own kernels/common; DIR/recorded/ holds recordings for its
# lessons' texts, found before assets/recorded/. No GPU needed (the recording is written here).
. tests/lib.sh
unset CUDACLIMB_LESSONS_ONLY CUDACLIMB_LESSONS
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
G=tests/fixtures/gemv

expect "tree: --lessons adds the tree's lessons" 0 "^gemv +1 stages" $B --lessons $G list
expect "tree: ... to the shipped ones" 0 "^bandwidth +[0-9]+ stages" $B --lessons $G list
expect "tree: CUDACLIMB_LESSONS adds too" 0 "^bandwidth +[0-9]+ stages" env CUDACLIMB_LESSONS=$G $B list
out=$($B --lessons-only $G list 2>&1)
if printf '%s\n' "$out" | grep -q "^gemv " && ! printf '%s\n' "$out" | grep -q "^bandwidth "; then pass "tree: --lessons-only is the tree alone"
else fail "tree: --lessons-only"; printf '%s\n' "$out" | head -5; fi
out=$(CUDACLIMB_LESSONS_ONLY=1 $B --lessons $G list 2>&1)
if printf '%s\n' "$out" | grep -q "^gemv " && ! printf '%s\n' "$out" | grep -q "^bandwidth "; then pass "tree: CUDACLIMB_LESSONS_ONLY=1 makes --lessons the tree alone"
else fail "tree: CUDACLIMB_LESSONS_ONLY"; printf '%s\n' "$out" | head -5; fi
out=$($B --lessons . list 2>&1)
if ! printf '%s\n' "$out" | grep -q "note:" && [ "$(printf '%s\n' "$out" | grep -c "^bandwidth ")" = 1 ]; then pass "tree: --lessons naming the shipped tree adds nothing and notes nothing"
else fail "tree: --lessons ."; printf '%s\n' "$out" | head -3; fi
expect "tree: --lessons and --lessons-only are one tree" 2 "--lessons and --lessons-only name one tree" $B --lessons $G --lessons-only $G list
expect "tree: a missing tree is refused" 2 "no lesson tree at $T/none" $B --lessons $T/none list

# A tree's lesson with a shipped lesson's id wins, and says so
mkdir -p "$T/dup/lessons" "$T/dup/kernels"
sed 's/^title: .*/title: The tree'"'"'s own bandwidth/' lessons/bandwidth.yaml >"$T/dup/lessons/bandwidth.yaml"
cp -r kernels/bandwidth "$T/dup/kernels/"
expect "tree: a lesson of the shipped id replaces the shipped one" 0 "^bandwidth +[0-9]+ stages +The tree's own bandwidth" $B --lessons "$T/dup" list
expect "tree: ... with a note on stderr naming both files" 0 "note: $T/dup/lessons/bandwidth\.yaml: lesson 'bandwidth' replaces the one of the same id in .*lessons/bandwidth\.yaml" \
	$B --lessons "$T/dup" list
n=$($B --lessons "$T/dup" list 2>/dev/null | grep -c "^bandwidth ")
[ "$n" = 1 ] && pass "tree: the replaced lesson is listed once" || fail "tree: bandwidth listed $n times"
expect "tree: the tree's copy is the one shown" 0 "^bandwidth - The tree's own bandwidth" $B --lessons "$T/dup" show bandwidth

# The tree's kernels see the shipped kernels/common (sm90.cuh), after the tree's own kernels/common
mkdir -p "$T/inc/lessons" "$T/inc/kernels/gemv" "$T/inc/kernels/common"
cp $G/lessons/gemv.yaml "$T/inc/lessons/"
printf '#pragma once\n__device__ inline float twice(float v) { return 2 * v; }\n' >"$T/inc/kernels/common/mine.cuh"
{ printf '#include "sm90.cuh"\n#include "mine.cuh"\n'; cat $G/kernels/gemv/naive.cu; } >"$T/inc/kernels/gemv/naive.cu"
expect "tree: a tree's kernel includes the shipped sm90.cuh and its own common header" 0 "^sm_90 +gemv +naive +ok" $B --lessons "$T/inc" check --arch sm_90
expect "tree: ... with --lessons-only too" 0 "^sm_90 +gemv +naive +ok" $B --lessons-only "$T/inc" check --arch sm_90
rm "$T/inc/kernels/common/mine.cuh"
expect "tree: a header in neither is still an error" 1 "mine\.cuh" $B --lessons-only "$T/inc" check --arch sm_90

# DIR/recorded/: the tree's recordings fill its lessons' texts
cuda=${CUDA_HOME:-/usr/local/cuda}
if cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$T/fake" 2>"$T/cc.log"; then
	mkdir -p "$T/rec/lessons" "$T/rec/recorded/h100"
	cp -r $G/kernels "$T/rec/"
	sed 's/explain: "One thread per row:/explain: "It took {ms}. One thread per row:/' $G/lessons/gemv.yaml >"$T/rec/lessons/gemv.yaml"
	CUDACLIMB_WORKER="$T/fake" CC_FAKE=ok $B --lessons "$T/rec" bench gemv --reps 3 --json >"$T/rec/recorded/h100/h100-test-gemv.json" 2>/dev/null
	expect "tree: DIR/recorded/ fills the tree's texts" 0 "Figures from the .* recording h100-test-gemv\.json" $B --lessons "$T/rec" show gemv/naive
	expect "tree: ... its numbers, not ?" 0 "It took [0-9.]+ (us|ms)\." $B --lessons "$T/rec" show gemv/naive
	mv "$T/rec/recorded" "$T/rec/recorded.off"
	expect "tree: without it the text says ?" 0 "It took \?\." $B --lessons "$T/rec" show gemv/naive
else
	fail "tree: the fake worker did not build: $(head -3 "$T/cc.log")"
fi
