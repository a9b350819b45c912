#!/usr/bin/env python3
"""A lab's GPU holds, from a trace of "run ASK START END PID UID GPU" lines (ns since the epoch; the
file queue's CUDACLIMB_QUEUE_TRACE or the lab service's trace:), for tests/gpu/lab_*.sh and
scripts/class-bench.sh: per GPU the holds and how many overlap the one before, then the waits (ask to
start). Usage: lab-trace.py TRACE SUMMARY LABEL. Writes the summary to SUMMARY and one PASS or FAIL
line (no two holds on one GPU overlap) to standard output, as tests/lib.sh's lines."""
import sys

trace, summary, label = sys.argv[1:4]
runs = []
for line in open(trace):
    f = line.split()
    if len(f) >= 6 and f[0] == "run":
        runs.append((int(f[1]), int(f[2]), int(f[3]), f[5], f[6] if len(f) > 6 else "-"))
out = open(summary, "w")
bad = 0
for g in sorted(set(r[4] for r in runs)):
    mine = sorted((r for r in runs if r[4] == g), key=lambda r: r[1])
    ov = sum(1 for a, b in zip(mine, mine[1:]) if b[1] < a[2])
    bad += ov
    out.write("GPU %-16s %4d holds %4d overlapping\n" % (g[:16], len(mine), ov))
waits = sorted((r[1] - r[0]) / 1e9 for r in runs) or [0]
p99 = waits[min(len(waits) - 1, int(0.99 * len(waits)))]
out.write("longest wait %.1f s, p99 %.1f s, median %.2f s (%d holds)\n" % (waits[-1], p99, waits[len(waits) // 2], len(runs)))
print("%s %s: no two holds on one GPU overlap (%d holds traced, %d overlapping)" % ("PASS" if bad == 0 and runs else "FAIL", label, len(runs), bad))
