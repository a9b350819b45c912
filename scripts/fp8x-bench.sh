#!/bin/sh
# The fp8x session's settings of tc.cuh (HANDOFF, TAIL, L2HINT, EPILOGUE 2 with STAGES 7), each timed in
# alternating pairs with a library as `bench` times them (the median of the per-pair ratios, [p20, p80];
# above 1 the stage is faster), RUNS times, the defaults first in every round so that each setting
# has the defaults of the same minutes beside it. SETTINGS: one setting a line (NAME=VALUE ...), or the
# list below. Logs under $OUT/fp8x-bench; the table (stdout) last.
# Usage, on the GPU box from the repository root after make:
#   OUT=DIR RUNS=1 [SETTINGS='...'] sh scripts/fp8x-bench.sh [STAGE [PAIR [SIZE]]]
#   (defaults: fp8 baseline.fp8_tensor_fast 4096; e.g. `sh scripts/fp8x-bench.sh bf16 baseline.bf16_lt`,
#   `sh scripts/fp8x-bench.sh fp8 baseline.fp8_tensor_fast 8192`)
B=${CUDACLIMB:-build/cudaclimb}
stage=${1:-fp8} pair=${2:-baseline.fp8_tensor_fast} size=${3:-4096}
if [ -n "${OUT:-}" ]; then o=$OUT/fp8x-bench; mkdir -p "$o"
else o=$(mktemp -d "${TMPDIR:-/tmp}/fp8x-bench.XXXXXX") || exit 1; echo "fp8x-bench: output in $o" >&2; fi
runs=${RUNS:-1}
settings=${SETTINGS:-'HANDOFF=1
TAIL=1
L2HINT=1
L2HINT=7
EPILOGUE=2
EPILOGUE=2 STAGES=7
EPILOGUE=0 STAGES=7
HANDOFF=1 TAIL=1 L2HINT=7
EPILOGUE=2 STAGES=7 HANDOFF=1 L2HINT=7'}
table=$o/table.txt
printf '%-40s %-4s %-26s %-10s %-10s %s\n' "$stage vs $pair, ${size}^3" run "per pair [p20,p80]" "stage ms" "pair ms" "SM MHz" >"$table"
seq=0
one() {   # one bench: $1 label, $2 run, $3 settings
	seq=$((seq + 1))
	f=$o/$(printf '%03d-%s' "$seq" "${1:-defaults}" | tr ' =' '_-')-$2.json
	args="--set m=$size --set n=$size --set k=$size"
	for s in $3; do args="$args --set $s"; done
	# shellcheck disable=SC2086
	timeout 300 $B bench precision_gemm --stage "$stage" --pair "$pair" $args --no-counters --timeout 120 --json >"$f" 2>"${f%.json}.err"
	python3 - "$f" "${1:-(defaults)}" "$2" "$stage" >>"$table" <<'PY'
import json, sys
f, label, run, stage = sys.argv[1:5]
try:
    r = [r for r in json.load(open(f))["results"] if r["stage"] == stage][0]
    if r["status"] != "ok" or (r.get("checked") and not r.get("passed")):
        print("%-40s %-4s %s: %s" % (label, run, r["status"], r.get("message", "")[:80])); sys.exit()
    ratio = "%.3f [%.3f, %.3f]" % (r["pair_ratio"], r["pair_ratio_p20"], r["pair_ratio_p80"]) if r.get("pair_ratio", 0) > 0 else "no pair"
    print("%-40s %-4s %-26s %-10.4f %-10.4f %.0f/%.0f" % (label, run, ratio, r["ms_median"], r.get("pair_ms_median", 0),
          r.get("sm_clock_mhz", 0), r.get("pair_sm_clock_mhz", 0)))
except Exception as e:
    print("%-40s %-4s no result (%s)" % (label, run, e))
PY
}
i=1
while [ $i -le "$runs" ]; do
	while IFS= read -r sets; do
		one "" "$i" ""
		if [ -n "$sets" ]; then one "$sets" "$i" "$sets"; fi
	done <<EOF
$settings
EOF
	i=$((i + 1))
done
cat "$table"
