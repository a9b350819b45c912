#!/bin/bash
# One call on the GPU box: build, run every test, benchmark every lesson, and print a short table
# last. Full logs go to $OUT/gpu-check.tgz (or build/gpu-check), the table to $OUT/summary.txt.
# Usage, from the repository root:
#   source .deps/env.sh; scripts/gpu-check.sh [lesson ...]
# SKIP_BENCH=1 leaves out the lesson benchmarks, SKIP_TESTS=1 the test suite, SKIP_CLASS=1 the lab
# benchmark (scripts/class-bench.sh); TEST_SECTIONS as in scripts/run-tests.sh. CUDACLIMB_COMMIT=HASH
# names the commit of the tree where the box's .git is not the tree's (a device tool that ships the
# working tree beside the .git of an earlier call): the build and the summary use it.
set -u
FINAL=${OUT:-build/gpu-check}
OUT=$(mktemp -d /tmp/gpu-check.XXXXXX)
mkdir -p "$FINAL"
trap 'tar -czf "$FINAL/gpu-check.tgz" -C "$OUT" . 2>/dev/null' EXIT
# the compile cache in this tree's build: a fixed folder in /tmp could be another user's, who could swap
# its entries
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$(pwd)/build/cache}
{
	if [ -n "${CUDACLIMB_COMMIT:-}" ]; then echo "commit $CUDACLIMB_COMMIT (as given: CUDACLIMB_COMMIT)"
	else echo "commit $(git -c safe.directory='*' rev-parse --short HEAD 2>/dev/null)$(git -c safe.directory='*' diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"; fi
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
} | tee "$OUT/about.txt"
if ! make -j8 all >"$OUT/build.log" 2>&1; then echo "BUILD FAILED"; tail -30 "$OUT/build.log"; exit 1; fi
build/cudaclimb device | tee "$OUT/device.txt"
lessons=${*:-$(build/cudaclimb list 2>/dev/null | awk '{print $1}')}
for l in $lessons; do
	[ -n "${SKIP_BENCH:-}" ] && break
	build/cudaclimb bench "$l" --timeout 60 >"$OUT/bench-$l.txt" 2>&1
	build/cudaclimb bench "$l" --timeout 60 --json >"$OUT/bench-$l.json" 2>/dev/null
done
if [ -z "${SKIP_TESTS:-}" ]; then
	export EXERCISE_TABLE=$OUT/exercises.md
	FUZZ_SECONDS=${FUZZ_SECONDS:-5} make test >"$OUT/test.log" 2>&1
	echo "make test exit $?: $(tail -1 "$OUT/test.log")"
	grep '^FAIL' "$OUT/test.log" | head -20
fi
scripts/watch-latency.sh bandwidth/coalesced 8 >"$OUT/watch-latency.txt" 2>&1
[ -z "${SKIP_CLASS:-}" ] && scripts/class-bench.sh >"$OUT/class-bench.txt" 2>&1
{
echo
cat "$OUT/watch-latency.txt"
[ -s "$OUT/exercises.md" ] && { echo "== exercises: starter and the stage's own kernel, each as the learner's file"; cat "$OUT/exercises.md"; }
for l in $lessons; do
	[ -n "${SKIP_BENCH:-}" ] && break
	echo "== $l"; sed -n '/^stage /,/^$/p' "$OUT/bench-$l.txt"; grep -E '^Fastest|: (wrong|fault|hang|crash|compile_error|refused)' "$OUT/bench-$l.txt"
done
[ -s "$OUT/class-bench.txt" ] && { echo "== a class of 30 on this GPU (scripts/class-bench.sh)"; cat "$OUT/class-bench.txt"; }
} | tee "$FINAL/summary.txt"
