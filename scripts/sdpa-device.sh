#!/bin/bash
# One device call for the cudnn_sdpa baseline: a smoke run of the baseline at an odd size (on failure,
# again with cuDNN's own log, and stop), three benches of flash_wgmma against it at the default size
# (per-pair ratios), then tests/gpu/attention.sh (every stage and the baseline at the default size and
# at seq 1000 / 777 / dim 64). Everything under $OUT/sdpa; a summary is printed last.
B=${CUDACLIMB:-build/cudaclimb}
# without OUT, a fresh private folder (a fixed name in /tmp could be another user's, its files links)
O=${OUT:-$(mktemp -d /tmp/sdpaout.XXXXXX)}/sdpa; mkdir -p $O || exit 1; echo "sdpa-device: output in $O" >&2
SUM=$O/summary.txt; : > $SUM
j() { python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for r in d["results"]:
    print("%-12s %-6s ms %.4f tflops %.1f chk %s/%s err %.3g pair %.3f [%.3f,%.3f] %s" % (r["stage"], r["status"], r["ms_median"], r["gflops"]/1e3, r["checked"], r["passed"], r["max_abs_err"], r.get("pair_ratio",0), r.get("pair_ratio_p20",0), r.get("pair_ratio_p80",0), r["message"][:120]))' "$1" 2>&1; }
export CUDACLIMB_BASELINE_LOG=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader >> $SUM 2>&1
timeout 60 $B run attention --stage baseline --set batch=1 --set heads=3 --set seq=777 --set dim=64 --reps 3 --no-counters --timeout 50 --json > $O/smoke.json 2>$O/smoke.err
echo "smoke rc=$? $(j $O/smoke.json)" >> $SUM
if ! grep -q '"status": *"ok"' $O/smoke.json; then
	CUDNN_LOGLEVEL_DBG=3 CUDNN_LOGDEST_DBG=$O/cudnn-log.txt timeout 60 $B run attention --stage baseline --set batch=1 --set heads=3 \
		--set seq=777 --set dim=64 --reps 1 --no-counters --timeout 50 --json > $O/smoke2.json 2>$O/smoke2.err
	gzip -f $O/cudnn-log.txt 2>/dev/null
	cat $SUM; tail -c 3000 $O/smoke.err; exit 1
fi
for i in 1 2 3; do
	timeout 90 $B bench attention --stage flash_wgmma --no-counters --timeout 80 > $O/bench$i.txt 2>$O/bench$i.err
	echo "bench$i rc=$?" >> $SUM; cat $O/bench$i.txt >> $SUM
done
ATTENTION_OUT=$O/att timeout 200 sh tests/gpu/attention.sh > $O/att.txt 2>&1
echo "attention.sh rc=$?" >> $SUM; cat $O/att.txt >> $SUM
grep -h "cuDNN" $O/*.err $O/att/*.err 2>/dev/null | sort | uniq -c | head -20 >> $SUM
cat $SUM
