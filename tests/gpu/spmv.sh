#!/bin/sh
# The spmv lesson on a GPU: a bench at the defaults (the regular matrix) and at skew 0.6 (the
# power-law one), every stage ok and within the tolerance of the scalar reference, cuSPARSE too, no
# claim contradicted; every stage and the baseline at odd sizes (1 row, 7, a prime near 10^6, rows
# with no nonzeros at per_row 1 and skew 0.9, a row longer than a tile); the ELL stage at every
# WIDTH; the balanced stage with SEARCH 0; the blocked stage at every LAYERS (0: every row in runs;
# 32: every row of a regular matrix in layers), at small RB (many blocks, rows 4x longer than a slab
# holds) and small EARLY (the rounds past the first chunk), with LONG 1024 and with no long rows, on
# the power-law matrices; the exercise's starter not passing and the stage's own kernel passing as the learner's file;
# the lesson without cuSPARSE (CUDACLIMB_WITHOUT=cusparse): the stages still run, the baseline fails
# as a library error. Without a GPU: one SKIP line. Run on the GPU box with scripts/gpu-tests.sh spmv.
. tests/lib.sh
K=kernels/spmv

$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu spmv: no GPU"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1; then skip "gpu spmv: python3 is needed to read --json"; exit 0; fi

T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# judge FILE [OPTIONS]: tests/gpu/judge.py (every result ok, every stage checked and passed; --claims:
# no claim contradicted; its header lists the other options)
judge() { python3 tests/gpu/judge.py "$@"; }

for skew in 0 0.6; do
	$B bench spmv --set skew=$skew --json >"$T/bench.json" 2>"$T/bench.err"
	if [ ! -s "$T/bench.json" ]; then fail "gpu spmv bench at skew $skew: no JSON"; head -20 "$T/bench.err"; continue; fi
	n=$(python3 -c 'import json,sys; print(len([r for r in json.load(open(sys.argv[1]))["results"] if r.get("stage") != "baseline"]))' "$T/bench.json")
	[ "$n" = 5 ] || fail "gpu spmv bench at skew $skew: $n stages, expected 5"
	if judge "$T/bench.json" --claims >"$T/judge.out"; then pass "gpu spmv bench at skew $skew: every stage ok against scalar, no claim contradicted"
	else fail "gpu spmv bench at skew $skew: a stage failed or a claim was contradicted"; fi
	sed 's/^/    /' "$T/judge.out" | head -30
done

# Every stage and the baseline at odd sizes, one bench each (no counters)
for set in "rows=1" "rows=7" "rows=7 per_row=3 skew=0.9" "rows=999983" "rows=999983 per_row=1 skew=0.9" "rows=1000003 per_row=64 skew=0.8" "rows=65537 per_row=13 skew=0.6"; do
	args=""
	for s in $set; do args="$args --set $s"; done
	# shellcheck disable=SC2086
	$B bench spmv $args --no-counters --json >"$T/run.json" 2>"$T/run.err"
	if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then pass "gpu spmv every stage at $set: ok against scalar"
	else fail "gpu spmv at $set"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10; fi
done

for w in 8 16 32 48 64; do
	$B run spmv/ell --set WIDTH=$w --set rows=999983 --set skew=0.6 --no-counters --json >"$T/run.json" 2>"$T/run.err"
	if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then pass "gpu spmv ell at WIDTH $w: ok"
	else fail "gpu spmv ell at WIDTH $w"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10; fi
done

# one_run NAME STAGE SETTINGS...: one run of STAGE, which must be ok against the scalar reference
one_run() {
	name=$1 stage=$2; shift 2
	args=""
	for s in "$@"; do args="$args --set $s"; done
	# shellcheck disable=SC2086
	$B run spmv/$stage $args --no-counters --json >"$T/run.json" 2>"$T/run.err"
	if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then pass "gpu spmv $name: ok"
	else fail "gpu spmv $name"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10; fi
}
one_run "balanced with SEARCH 0 at skew 0.6" balanced SEARCH=0 rows=999983 skew=0.6
for l in 0 2 4 8 16 32; do
	one_run "blocked at LAYERS $l, skew 0.9" blocked LAYERS=$l rows=999983 per_row=40 skew=0.9
done
one_run "blocked at RB 2048, EARLY 2, skew 0.6" blocked RB=2048 EARLY=2 rows=1000003 per_row=64 skew=0.6
one_run "blocked at RB 4096, LAYERS 32, the regular matrix" blocked RB=4096 LAYERS=32 rows=300007 per_row=33
for long in 1024 2147483647; do
	one_run "blocked at LONG $long, skew 0.9" blocked LONG=$long rows=999983 per_row=40 skew=0.9
done

try_exercise "gpu spmv vector" spmv/vector "$K" "wrong"

out=$(CUDACLIMB_WITHOUT=cusparse $B bench spmv --set rows=65537 --no-counters 2>&1); rc=$?
if printf '%s\n' "$out" | grep -q "cuSPARSE not found (withheld by CUDACLIMB_WITHOUT)" && printf '%s\n' "$out" | grep -Eq "^blocked "; then
	pass "gpu spmv without cuSPARSE: the stages run, the worker says cuSPARSE was withheld"
else fail "gpu spmv without cuSPARSE (exit $rc)"; printf '%s\n' "$out" | head -20 | sed 's/^/    /'; fi
