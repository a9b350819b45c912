#!/bin/sh
# Runs every test suite (unit, lessons, CLI, TUI, sanitizers, fuzz, GPU) and ends with one line:
# "tests: N passed, N failed, N skipped". Exit status 1 when anything failed.
# TEST_SECTIONS="gpu tui" runs only those sections (unit check cli tui asan attack fuzz gpu), for a short
# call on the GPU box; TUI_TESTS="t_gpu t_exercise" only those TUI scripts.
set -u
cd "$(dirname "$0")/.."
export CUDACLIMB=build/cudaclimb
export XDG_CACHE_HOME=${TEST_CACHE:-$(pwd)/build/test-cache} XDG_STATE_HOME=$(pwd)/build/test-state
# cudaclimb uses no cache or progress file below a folder another user owns or may write without the
# sticky bit (util.c, dir_trusted): a checkout in such a place takes both from a private folder instead.
untrusted() {
	d=$1
	while [ -n "$d" ] && [ "$d" != / ]; do
		set -- $(stat -L -c '%u %a' "$d" 2>/dev/null) || return 0
		case "$1" in 0 | "$(id -u)") ;; *) return 0 ;; esac
		[ $((0$2 & 022)) != 0 ] && [ $((0$2 & 01000)) = 0 ] && return 0   # others may write, no sticky bit
		d=$(dirname "$d")
	done
	return 1
}
if untrusted "$(pwd)" && [ -z "${TEST_CACHE:-}" ]; then
	priv=$(mktemp -d /tmp/cudaclimb-tests.XXXXXX)
	export XDG_CACHE_HOME=$priv/cache XDG_STATE_HOME=$priv/state
	echo "note: $(pwd) is below a folder others may write: the tests' cache and state are in $priv"
fi
mkdir -p "$XDG_CACHE_HOME" "$XDG_STATE_HOME"
# the test binaries live in build/tests/, away from the nvdisasm that deps.sh may put in build/tools/
[ -z "${CUDACLIMB_NVDISASM:-}" ] && [ -x build/tools/nvdisasm ] && export CUDACLIMB_NVDISASM="$(pwd)/build/tools/nvdisasm"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

want() { [ -z "${TEST_SECTIONS:-}" ] || case " $TEST_SECTIONS " in *" $1 "*) true ;; *) false ;; esac; }
section() { echo; echo "== $*"; }
# cmocka prints "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s), listed below:"; turn them into our lines.
cmocka() {
	out=$("$@" 2>&1); code=$?
	printf '%s\n' "$out" | grep -E '^\[  (FAILED|ERROR)  \] [a-z_]' | sed "s/^/    /"
	printf '%s\n' "$out" | grep '^SKIP '   # a test's own word that part of it could not run here
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	i=0; while [ $i -lt "${p:-0}" ]; do echo "PASS $(basename "$1") #$((i + 1))"; i=$((i + 1)); done
	i=0; while [ $i -lt "${f:-0}" ]; do echo "FAIL $(basename "$1") #$((i + 1))"; i=$((i + 1)); done
	[ -z "$p$f" ] && echo "FAIL $(basename "$1"): exit $code, no cmocka summary" && printf '%s\n' "$out" | tail -5
	return 0
}

{
	if want unit; then
	section "unit tests (cmocka)"
	for t in build/tests/test_*; do [ -x "$t" ] && cmocka "$t"; done
	fi
	if want check; then
	section "every lesson loads and every stage compiles for sm_80 and sm_90 (NVRTC, no GPU needed)"
	out=$($CUDACLIMB check --arch sm_80,sm_90 2>&1); code=$?
	printf '%s\n' "$out" | awk '$4 == "ok" || $4 == "unsupported" { print "PASS check " $1 " " $2 "/" $3 } $4 != "ok" && $4 != "unsupported" && NF > 3 && $1 ~ /^sm_/ { print "FAIL check " $0 }'
	[ $code = 0 ] && echo "PASS check exit status" || { echo "FAIL check exit status $code"; printf '%s\n' "$out" | grep -v ' ok ' | head -20; }
	fi
	if want cli; then
	section "command line"
	for s in tests/cli/*.sh; do sh "$s"; done
	fi
	if want tui; then
	section "terminal interface (tmux)"
	if [ -x tests/tui/run.sh ]; then tests/tui/run.sh; else echo "SKIP tui: tests/tui/run.sh is missing"; fi
	fi
	if want asan; then
	section "AddressSanitizer + UBSan"
	sh tests/asan.sh
	fi
	if want attack; then
	section "attacks: a hostile user on a shared box (tests/attack, each bounded in time and memory; after the ASan build, which one attack uses)"
	for s in tests/attack/*.sh; do [ -f "$s" ] && sh "$s"; done
	fi
	if want fuzz; then
	section "fuzzing (${FUZZ_SECONDS:-10} s per target)"
	if [ -x scripts/fuzz.sh ]; then scripts/fuzz.sh "${FUZZ_SECONDS:-10}"; else echo "SKIP fuzz: scripts/fuzz.sh is missing"; fi
	fi
	if want gpu; then
	section "GPU"
	sh tests/gpu/run.sh
	sh tests/gpu/tma.sh
	sh tests/gpu/worker_v2.sh
	sh tests/gpu/exercises.sh
	sh tests/gpu/hotspots.sh
	sh tests/gpu/course_walk.sh
	sh tests/gpu/claims.sh
	sh tests/gpu/lessons_new.sh
	sh tests/gpu/fusion.sh
	sh tests/gpu/v2demo.sh
	sh tests/gpu/precision_gemm.sh
	sh tests/gpu/without_libs.sh
	sh tests/gpu/stencil.sh
	sh tests/gpu/streams.sh
	sh tests/gpu/stream_events.sh
	sh tests/gpu/dynamic.sh
	sh tests/gpu/timing.sh
	sh tests/gpu/reduction.sh
	sh tests/gpu/attention.sh
	sh tests/gpu/verify.sh
	sh tests/gpu/lab_hostile.sh
	sh tests/gpu/lab_service.sh
	sh tests/gpu/unknown_arch.sh
	sh tests/gpu/conv1d.sh
	sh tests/gpu/stream_order.sh
	sh tests/gpu/follow.sh
	sh tests/gpu/histogram.sh
	sh tests/gpu/scan.sh
	sh tests/gpu/gemv_baseline.sh
	sh tests/gpu/latency.sh
	sh tests/gpu/cycle.sh
	sh tests/gpu/dp.sh
	sh tests/gpu/pdl.sh
	fi
} 2>&1 | tee "$log"

p=$(grep -c '^PASS' "$log"); f=$(grep -c '^FAIL' "$log"); s=$(grep -c '^SKIP' "$log")
echo
grep '^FAIL' "$log" | sed 's/^/  /'
echo "tests: $p passed, $f failed, $s skipped"
[ "$f" = 0 ]
