#!/bin/sh
# sgemm-profile: cublasSgemm's kernel and the sgemm lesson's stages side by side under Nsight Compute
# (issue #18, part 2: name cuBLAS's kernel, its tile and registers, and where each kernel's warps
# stall, before choosing what the next stage should change). On a GPU box, from the repository root:
#   source .deps/env.sh; scripts/sgemm-profile.sh [OUTDIR] [STAGE ...]     (default: baseline warptile)
# Each run is profiled whole (ncu follows the worker process; clocks and caches left alone, as our own
# profiler does; only kernels whose name has "gemm" are profiled: replaying the worker's read calibration
# fails); the first launch of the stage's kernel (for the baseline, of cuBLAS's) is reported. Raw CSVs go to
# OUTDIR (default build/sgemm-profile); a table of the chosen metrics is printed last.
set -u
NCU=${NCU:-ncu}
command -v "$NCU" >/dev/null 2>&1 || NCU=${CUDA_HOME:-/usr/local/cuda}/bin/ncu
out=${1:-build/sgemm-profile}
[ $# -gt 0 ] && shift
stages=${*:-baseline warptile}
mkdir -p "$out"
for st in $stages; do
	timeout 300 "$NCU" --target-processes all --clock-control none --cache-control none -k regex:gemm --launch-count 12 \
		--section LaunchStats --section Occupancy --section SpeedOfLight --section ComputeWorkloadAnalysis \
		--section WarpStateStats --section SchedulerStats --csv --page raw \
		build/cudaclimb run "sgemm/$st" --no-counters --reps 3 >"$out/$st.csv" 2>"$out/$st.err"
	echo "$st: ncu exit $?"
done
python3 - "$out" $stages <<'PY'
import csv, io, sys
out, stages = sys.argv[1], sys.argv[2:]
want = [("launch__grid_size", "grid"), ("launch__block_size", "block"), ("launch__registers_per_thread", "regs"),
        ("launch__shared_mem_per_block_dynamic", "dyn smem"), ("launch__shared_mem_per_block_static", "static smem"),
        ("gpu__time_duration.sum", "duration"), ("sm__cycles_elapsed.avg.per_second", "SM clock"),
        ("sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy %"),
        ("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "FMA pipe %"),
        ("sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active", "LSU pipe %"),
        ("smsp__issue_active.avg.pct_of_peak_sustained_active", "issue slots busy %"),
        ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM throughput %"),
        ("smsp__average_warp_latency_per_inst_issued.ratio", "cycles between issues per warp")]
stall_prefix = "smsp__average_warps_issue_stalled_"
rows = {}
for st in stages:
    text = open("%s/%s.csv" % (out, st)).read()
    start = text.find('"ID"')
    if start < 0:
        print("%s: no ncu table (%s)" % (st, open("%s/%s.err" % (out, st)).read()[-300:])); continue
    rd = list(csv.reader(io.StringIO(text[start:])))
    head, units, data = rd[0], rd[1], rd[2:]
    col = {h: i for i, h in enumerate(head)}
    # the stage's own kernel (its entry is sgemm_<stage>); for the baseline, the first other GEMM
    # (cuBLAS's, also run as every stage's reference)
    name = lambda r: r[col["Kernel Name"]]
    pick = [r for r in data if (st in name(r) if st != "baseline" else "gemm" in name(r).lower() and not name(r).startswith("sgemm_"))]
    if not pick:
        print("%s: no gemm kernel among %s" % (st, sorted({r[col["Kernel Name"]][:40] for r in data}))); continue
    r = pick[0]
    d = {"kernel": r[col["Kernel Name"]]}
    for m, label in want:
        if m in col: d[label] = "%s %s" % (r[col[m]], units[col[m]])
    stalls = [(h[len(stall_prefix):].replace("_per_issue_active.ratio", ""), float(r[col[h]] or 0)) for h in head
              if h.startswith(stall_prefix) and h.endswith("_per_issue_active.ratio") and "not_issued" not in h]
    tot = sum(v for _, v in stalls) or 1
    d["top stalls"] = ", ".join("%s %.0f%%" % (n, 100 * v / tot) for n, v in sorted(stalls, key=lambda x: -x[1])[:4])
    rows[st] = d
for st, d in rows.items():
    print("== sgemm/%s" % st)
    for k, v in d.items(): print("  %-32s %s" % (k, v))
PY
