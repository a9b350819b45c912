#!/bin/sh
# Issue #48, item 5 in one device call: each top stage timed in alternating pairs with the library it
# must meet (the bench's own pairs: the median of the per-pair ratios with p20 and p80; above 1 the
# stage is faster), RUNS times each, at the sizes the issue names. Logs under $OUT/past-library; the
# table (stdout) last.
# Usage, on the GPU box from the repository root after make:
#   OUT=DIR RUNS=2 sh scripts/past-library.sh [PAIR ...]     (PAIR: a name from the list below)
B=${CUDACLIMB:-build/cudaclimb}
if [ -n "${OUT:-}" ]; then o=$OUT/past-library; mkdir -p "$o"
else o=$(mktemp -d "${TMPDIR:-/tmp}/past-library.XXXXXX") || exit 1; echo "past-library: output in $o" >&2; fi
runs=${RUNS:-2}
# name | lesson | stage | pair | sets (space separated NAME=VALUE) | regime
pairs='fp8_4096|precision_gemm|fp8|baseline.fp8_tensor_fast||burst
fp8_8192|precision_gemm|fp8|baseline.fp8_tensor_fast|m=8192 n=8192 k=8192|sustained
bf16_4096|precision_gemm|bf16|baseline.bf16_lt||burst
fp16_4096|precision_gemm|fp16|baseline.fp16_lt||burst
attention|attention|flash_wgmma|baseline||burst
scan|scan|lookback|baseline||burst
transpose_wide|transpose|wide|baseline||burst
transpose_stream|transpose|stream|baseline||burst
transpose_vec|transpose|vec|baseline||burst
transpose_copy|transpose|copy|baseline||burst
sgemm_ffma|sgemm|warptile|baseline||burst'
want() { [ $# -eq 0 ] && return 0; for w; do [ "$w" = "$name" ] && return 0; done; return 1; }
table=$o/table.txt
printf '%-15s %-6s %-9s %-26s %-10s %-10s %s\n' pair run regime "stage/pair per pair [p20,p80]" "stage ms" "pair ms" "SM MHz stage/pair" >"$table"
echo "$pairs" | while IFS='|' read -r name lesson stage pair sets regime; do
	want "$@" || continue
	i=1
	while [ $i -le "$runs" ]; do
		f=$o/$name-$i.json
		set_args=""; for s in $sets; do set_args="$set_args --set $s"; done
		# shellcheck disable=SC2086
		timeout 200 $B bench "$lesson" --stage "$stage" --pair "$pair" $set_args --no-counters --timeout 120 --json >"$f" 2>"$o/$name-$i.err"
		python3 - "$f" "$name" "$i" "$regime" "$stage" >>"$table" <<'PY'
import json, sys
f, name, run, regime, stage = sys.argv[1:6]
try:
    rs = [r for r in json.load(open(f))["results"] if r["stage"] == stage]
    r = rs[0]
    # the transpose lesson's copy stage moves the matrix without turning it: timed, not checked
    if r["status"] != "ok" or (r.get("checked") and not r.get("passed")):
        print("%-15s %-6s %-9s %s: %s" % (name, run, regime, r["status"], r.get("message", "")[:80])); sys.exit()
    ratio = "%.3f [%.3f, %.3f]" % (r["pair_ratio"], r["pair_ratio_p20"], r["pair_ratio_p80"]) if r.get("pair_ratio", 0) > 0 else "no pair"
    print("%-15s %-6s %-9s %-26s %-10.4f %-10.4f %.0f/%.0f" % (name, run, regime, ratio, r["ms_median"], r.get("pair_ms_median", 0), r.get("sm_clock_mhz", 0), r.get("pair_sm_clock_mhz", 0)))
except Exception as e:
    print("%-15s %-6s %-9s no result (%s)" % (name, run, regime, e))
PY
		i=$((i + 1))
	done
done
cat "$table"
