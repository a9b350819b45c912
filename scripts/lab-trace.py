#!/usr/bin/env python3
"""A lab's GPU holds, from a trace of "run ASK START END PID UID GPU" lines (ns since the epoch; the
file queue's CUDACLIMB_QUEUE_TRACE or the lab service's trace:), for tests/gpu/lab_*.sh,
scripts/class-bench.sh and scripts/gpu-x2.sh: per GPU the holds, how many overlap the one before, and
the waits (ask to start: longest, p99, median), then the waits of every hold.
Usage: lab-trace.py TRACE SUMMARY LABEL [EXPECT_GPUS [HOGS_NS]]
Writes the summary to SUMMARY and PASS or FAIL lines to standard output, as tests/lib.sh's:
  - always, whether no two holds on one GPU overlap;
  - with EXPECT_GPUS (a count, or the GPUs' UUIDs separated by commas or spaces; "" or "-" for none),
    whether every GPU of the box got holds; a GPU named and never held gets a line of 0 holds;
  - with HOGS_NS (ns since the epoch: when a hostile user's hogs took the head of every GPU's line,
    never to give it back), whether each GPU then served holds that started after that, and how long
    after (while the hogs live, only a hog passed over lets a run start)."""
import re
import sys


def p99(xs):
    """The 99th percentile of the sorted list xs (its last element below 100 values)."""
    return xs[min(len(xs) - 1, int(0.99 * len(xs)))]


def main(argv):
    if len(argv) < 4:
        sys.stderr.write("usage: lab-trace.py TRACE SUMMARY LABEL [EXPECT_GPUS [HOGS_NS]]\n")
        return 2
    trace, summary, label = argv[1:4]
    expect = argv[4].strip() if len(argv) > 4 and argv[4].strip() not in ("", "-") else None
    hogs = int(argv[5]) if len(argv) > 5 and argv[5].strip() not in ("", "-") else None
    runs = []
    for line in open(trace):
        f = line.split()
        if len(f) >= 6 and f[0] == "run":
            runs.append((int(f[1]), int(f[2]), int(f[3]), f[5], f[6] if len(f) > 6 else "-"))
    named = []   # the GPUs the box has, by UUID, when EXPECT_GPUS names them
    want = None
    if expect is not None:
        if re.fullmatch(r"[0-9]+", expect):
            want = int(expect)
        else:
            named = [g for g in re.split(r"[,\s]+", expect) if g]
            want = len(named)
    gpus = sorted(set(r[4] for r in runs) | set(named))
    out = open(summary, "w")
    bad = 0
    held = []      # GPUs with holds
    after = {}     # GPU: seconds from HOGS_NS to its first hold that started after it
    for g in gpus:
        mine = sorted((r for r in runs if r[4] == g), key=lambda r: r[1])
        ov = sum(1 for a, b in zip(mine, mine[1:]) if b[1] < a[2])
        bad += ov
        if mine:
            held.append(g)
        waits = sorted((r[1] - r[0]) / 1e9 for r in mine) or [0]
        line = "GPU %-16s %4d holds %4d overlapping, longest wait %.1f s, p99 %.1f s, median %.2f s" % (
            g[:16], len(mine), ov, waits[-1], p99(waits), waits[len(waits) // 2])
        if hogs is not None:
            later = [r[1] for r in mine if r[1] >= hogs]
            if later:
                after[g] = (min(later) - hogs) / 1e9
                line += ", first hold %.1f s after the hogs" % after[g]
            else:
                line += ", no hold after the hogs"
        out.write(line + "\n")
    waits = sorted((r[1] - r[0]) / 1e9 for r in runs) or [0]
    out.write("longest wait %.1f s, p99 %.1f s, median %.2f s (%d holds)\n" % (waits[-1], p99(waits), waits[len(waits) // 2], len(runs)))
    out.close()
    print("%s %s: no two holds on one GPU overlap (%d holds traced, %d overlapping)" % ("PASS" if bad == 0 and runs else "FAIL", label, len(runs), bad))
    box = named or gpus   # the GPUs judged: those named, else those in the trace
    if want is not None:
        got = [g for g in box if g in held]
        idle = [g[:16] for g in box if g not in held]
        short = want - len(got)
        ok = short <= 0 and not idle
        why = ", ".join(idle) if idle else "%d GPU%s not in the trace" % (short, "" if short == 1 else "s")
        print("%s %s: %d of the %d GPUs got holds%s" % ("PASS" if ok else "FAIL", label, len(got), want, "" if ok else " (no holds: %s)" % why))
    if hogs is not None:
        ok = bool(box) and all(g in after for g in box) and (want is None or len([g for g in box if g in after]) >= want)
        print("%s %s: every GPU served runs after the hogs took its line (%s)" % ("PASS" if ok else "FAIL", label,
              ", ".join("%s: %s" % (g[:16], "%.1f s after" % after[g] if g in after else "none") for g in box) or "no GPU in the trace"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
