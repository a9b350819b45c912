#!/bin/sh
# The cublas_sgemv library baseline on a GPU (#46 item 3), through the GEMV fixture
# (tests/fixtures/gemv): a bench at the defaults (4096 x 4096) and at odd shapes (1 x 1, 7 x 4099, a
# tall 100003 x 3, a wide 3 x 100003), cuBLAS's y within the tolerance of the naive stage's each time
# (the row-major A read as A^T: a wrong transpose or leading dimension fails every non-square shape);
# with CUDACLIMB_WITHOUT=cublas the baseline fails in place and the worker says why. Without a GPU:
# one SKIP line. On the GPU box: sh tests/gpu/gemv_baseline.sh (scripts/run-tests.sh runs it in gpu).
. tests/lib.sh
G="--lessons tests/fixtures/gemv"
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "gpu gemv baseline: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "gpu gemv baseline: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1; then skip "gpu gemv baseline: python3 is needed to read --json"; exit 0; fi
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# baseline_ok FILE: the baseline's result ok, checked against the naive stage and passed
baseline_ok() {
	python3 - "$1" <<'PY'
import json, sys
try:
    rs = json.load(open(sys.argv[1]))["results"]
except Exception as e:
    print("no JSON: %s" % e); sys.exit(1)
b = [r for r in rs if r.get("stage") == "baseline"]
if not b:
    print("no baseline result"); sys.exit(1)
r = b[0]
print("    baseline: %s, checked %s, passed %s, %.4f ms: %s" % (r["status"], r.get("checked"), r.get("passed"), r.get("ms_median", 0), r.get("message", "")[:120]))
sys.exit(0 if r["status"] == "ok" and r.get("checked") and r.get("passed") else 1)
PY
}

for shape in "m=4096 n=4096" "m=1 n=1" "m=7 n=4099" "m=100003 n=3" "m=3 n=100003"; do
	args=""
	for s in $shape; do args="$args --set $s"; done
	# shellcheck disable=SC2086
	$B $G bench gemv $args --no-counters --json >"$T/b.json" 2>"$T/b.err"
	if baseline_ok "$T/b.json" >"$T/ok.out" && python3 tests/gpu/judge.py "$T/b.json" >"$T/judge.out"; then
		pass "gpu gemv baseline at $shape: cublas_sgemv ok against the naive stage"
	else
		fail "gpu gemv baseline at $shape"; cat "$T/ok.out" "$T/judge.out"; head -10 "$T/b.err"
	fi
done

CUDACLIMB_WITHOUT=cublas $B $G run gemv/baseline --no-counters --json >"$T/w.json" 2>"$T/w.err"
if grep -q "cuBLAS not found" "$T/w.err" && ! baseline_ok "$T/w.json" >/dev/null; then
	pass "gpu gemv baseline: without cuBLAS the baseline fails in place and the worker says why"
else
	fail "gpu gemv baseline: without cuBLAS"; head -5 "$T/w.err"
fi
