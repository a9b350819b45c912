#!/bin/sh
# Builds every tests/fuzz/fuzz_*.c with clang's libFuzzer, ASan and UBSan into build-fuzz/, then runs
# each for $1 seconds (default 10) over tests/fuzz/corpus/<name>/. New corpus entries go to a
# temporary folder, never into the repository; a crash input is kept in build-fuzz/artifacts/.
# Prints "PASS fuzz_x (N runs in S s)", "FAIL fuzz_x: ..." per target, or "SKIP fuzz: <why>".
# Exit status: 1 if any target failed, else 0.   Usage: scripts/fuzz.sh [SECONDS]
set -u
cd "$(dirname "$0")/.." || exit 1
secs=${1:-10}
case $secs in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;; esac
CC=${FUZZ_CC:-clang}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
OUT=build-fuzz
CFLAGS="-g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc/core -Isrc/lesson -Isrc/cuda -Isrc/render -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$CUDA_HOME/include"
# arch.c asks NVRTC which architectures it compiles for
FUZZ_LIBS="-L$CUDA_HOME/lib64 -Wl,-rpath,$CUDA_HOME/lib64 -lnvrtc"

# Sources each target needs besides itself (as its header comment says). A target not listed here
# gets the engine sources that need neither CUDA nor the terminal.
sources_for() {
	case $1 in
	fuzz_expr) echo "src/lesson/expr.c src/core/fmt.c src/core/util.c" ;;
	fuzz_arch) echo "src/cuda/arch.c src/core/yamldoc.c src/engine/occupancy.c src/core/fmt.c src/core/util.c" ;;
	fuzz_lesson | fuzz_expect) echo "src/lesson/plan.c src/lesson/lesson.c src/lesson/lesson_yaml.c src/core/yamldoc.c src/lesson/lesson_stage.c src/lesson/stage_timing.c src/lesson/lesson_exercise.c src/lesson/lesson_expect.c src/lesson/lesson_case.c src/lesson/claim_names.c src/engine/claims.c src/engine/diagnose.c src/core/result.c src/lesson/expr.c src/core/fmt.c src/core/util.c" ;;
	fuzz_sanitize) echo "src/engine/sanitize.c src/core/fmt.c src/core/util.c" ;;
	fuzz_progress) echo "src/engine/exercise_work.c src/core/fmt.c src/core/util.c" ;;
	fuzz_stage_progress) echo "src/engine/progress.c src/core/fmt.c src/core/util.c" ;;
	fuzz_sass) echo "src/cuda/sass.c src/core/fmt.c src/core/util.c" ;;
	fuzz_hotspots) echo "src/render/hotspots_map.c src/cuda/sass.c src/core/fmt.c src/core/util.c" ;;
	fuzz_compile) echo "src/cuda/compile_parse.c src/core/fmt.c src/core/util.c" ;;
	fuzz_sigcheck) echo "src/engine/sigcheck.c src/cuda/compile_parse.c src/lesson/plan.c src/lesson/lesson.c src/lesson/lesson_case.c src/lesson/lesson_yaml.c src/core/yamldoc.c src/lesson/lesson_stage.c src/lesson/stage_timing.c src/lesson/lesson_exercise.c src/lesson/lesson_expect.c src/lesson/claim_names.c src/core/result.c src/lesson/expr.c src/core/fmt.c src/core/util.c" ;;
	fuzz_serve) echo "src/app/serve_request.c src/core/labwire.c src/core/util.c" ;;
	fuzz_fields) echo "src/core/result.c src/core/fmt.c src/core/util.c" ;;
	fuzz_course) echo "src/engine/course.c src/engine/results.c src/core/sha256.c src/engine/exercise_kind.c src/app/class_report.c src/core/json.c src/core/result.c src/lesson/plan.c src/lesson/lesson.c src/lesson/lesson_case.c src/lesson/lesson_yaml.c src/core/yamldoc.c src/lesson/lesson_stage.c src/lesson/stage_timing.c src/lesson/lesson_exercise.c src/lesson/lesson_expect.c src/engine/claims.c src/engine/diagnose.c src/lesson/claim_names.c src/runner/runner.c src/runner/runner_local.c src/runner/runner_ssh.c src/runner/runner_slurm.c src/lesson/expr.c src/core/fmt.c src/core/util.c" ;;
	fuzz_rules) echo "src/engine/diagnose.c src/lesson/claim_names.c src/core/yamldoc.c src/core/result.c src/lesson/expr.c src/core/fmt.c src/core/util.c" ;;
	fuzz_plan) echo "src/lesson/plan_wire.c src/lesson/plan.c src/lesson/lesson.c src/lesson/lesson_case.c src/lesson/lesson_yaml.c src/core/yamldoc.c src/lesson/lesson_stage.c src/lesson/stage_timing.c src/lesson/lesson_exercise.c src/lesson/lesson_expect.c src/lesson/claim_names.c src/core/result.c src/lesson/expr.c src/core/fmt.c src/core/util.c" ;;
	fuzz_replay) echo "src/runner/replay.c src/lesson/plan.c src/lesson/lesson.c src/lesson/lesson_case.c src/lesson/lesson_yaml.c src/core/yamldoc.c src/lesson/lesson_stage.c src/lesson/stage_timing.c src/lesson/lesson_exercise.c src/lesson/lesson_expect.c src/lesson/claim_names.c src/core/result.c src/lesson/expr.c src/core/fmt.c src/core/util.c" ;;
	*)
		for f in src/*/*.c; do
			case ${f##*/} in
			main.c | cli.c | runner_worker.c | worker_main.c | gpu*.c | baseline.c | engine*.c | score.c | compile.c | counters* | report.c | json.c) ;;
			*) printf '%s ' "$f" ;;
			esac
		done
		;;
	esac
}

if ! command -v "$CC" >/dev/null 2>&1; then
	echo "SKIP fuzz: $CC is not installed (apt-get install clang)"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudaclimb-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$tmp/probe.c"
if ! $CC -fsanitize=fuzzer,address,undefined "$tmp/probe.c" -o "$tmp/probe" >"$tmp/probe.log" 2>&1; then
	echo "SKIP fuzz: $CC cannot link with -fsanitize=fuzzer (libFuzzer missing): $(head -n 1 "$tmp/probe.log")"
	exit 0
fi

mkdir -p "$OUT/artifacts"
failed=0
found=0
for src in tests/fuzz/fuzz_*.c; do
	[ -f "$src" ] || continue
	found=1
	name=$(basename "$src" .c)
	bin=$OUT/$name
	# shellcheck disable=SC2046,SC2086 # the flags and the source list are split on purpose
	if ! $CC $CFLAGS "$src" $(sources_for "$name") -lyaml -lm $FUZZ_LIBS -o "$bin" >"$OUT/$name.build.log" 2>&1; then
		echo "FAIL $name: build failed ($(grep -m 1 -E 'error|undefined reference' "$OUT/$name.build.log"); see $OUT/$name.build.log)"
		failed=1
		continue
	fi
	corpus=tests/fuzz/corpus/${name#fuzz_}
	new=$tmp/corpus-$name
	mkdir -p "$new"
	dirs=$new
	[ -d "$corpus" ] && dirs="$new $corpus"
	log=$OUT/$name.log
	# shellcheck disable=SC2086
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$OUT/artifacts/$name-" $dirs >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
	took=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\2/p' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ] && [ -n "$runs" ]; then
		echo "PASS $name (${runs} runs in ${took} s)"
	else
		why=$(grep -m 1 -E '^(==[0-9]+==ERROR|SUMMARY:|.*runtime error:|.*deadly signal|.*-timeout=|.*out-of-memory)' "$log")
		art=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$log" | tail -n 1)
		echo "FAIL $name: ${why:-exit status $rc}${art:+ (input: $art)}; log in $log"
		failed=1
	fi
done
[ "$found" = 1 ] || echo "SKIP fuzz: no tests/fuzz/fuzz_*.c"
exit "$failed"
