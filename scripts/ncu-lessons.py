#!/usr/bin/env python3
"""Checks cudaclimb's hardware counters against Nsight Compute for every stage of every lesson.

For each stage: `cudaclimb run LESSON/STAGE --json` reads the counters through CUPTI; the same command
with --no-counters runs again under `ncu` restricted to the stage's own kernels. Both sides leave
clocks and caches alone (ncu --clock-control none --cache-control none; cudaclimb never changes
them). Per stage it compares achieved occupancy (of the stage's first kernel), DRAM bytes (read +
write, per execution of the stage: ncu's per-launch values summed over the stage's kernels) and
shared-memory bank conflicts (load + store). Prints a table with the relative differences.
With --repeat N each side runs N times and the means are compared; the conflict counts of every run
are printed too (in kernels with cp.async they vary from run to run, in ncu as much as in ours).

usage: scripts/ncu-lessons.py [--bin build/cudaclimb] [--tolerance 5] [--repeat N] [--stages a,b] [LESSON ...]
"""
import argparse, csv, io, json, os, re, subprocess, sys

try:
    import yaml
except ImportError:
    sys.exit("ncu-lessons: needs PyYAML to read the lessons' kernel entries")

METRICS = ["sm__warps_active.avg.pct_of_peak_sustained_active", "dram__bytes_read.sum", "dram__bytes_write.sum",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]


def entries(lesson, stage):
    s = next(x for x in lesson["stages"] if x["id"] == stage)
    names = [s["entry"]]
    for launch in s["launches"]:
        if "entry" in launch and launch["entry"] not in names:
            names.append(launch["entry"])
    return names


def ncu(binary, lesson, stage, kernels):
    cmd = ["ncu", "--clock-control", "none", "--cache-control", "none", "--print-kernel-base", "function",
           "--print-units", "base", "--csv", "--metrics", ",".join(METRICS), "-k", "regex:^(%s)$" % "|".join(kernels),
           binary, "run", "%s/%s" % (lesson, stage), "--no-counters", "--reps", "3", "--timeout", "120"]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    rows = [l for l in out.splitlines() if l.startswith('"')]
    per = {}   # kernel -> metric -> [values]
    for r in csv.DictReader(io.StringIO("\n".join(rows))):
        v = r["Metric Value"].replace(",", "")
        try:
            per.setdefault(r["Kernel Name"], {}).setdefault(r["Metric Name"], []).append(float(v))
        except ValueError:
            pass
    return per


def rel(a, b):
    if a is None or b is None:
        return None
    if abs(a - b) < 1e3:   # counts that are ~0 on both sides (a few hundred stray conflicts): no ratio
        return 0.0
    return abs(a - b) / max(abs(b), 1e-30) * 100


def measure(binary, lname, lesson, sid):
    """One run on each side: (ours, ncu) as [occupancy %, DRAM bytes, bank conflicts], or a message."""
    res = subprocess.run([binary, "run", "%s/%s" % (lname, sid), "--json", "--reps", "3", "--timeout", "120"],
                         capture_output=True, text=True)
    try:
        r = json.loads(res.stdout)["results"][0]
    except Exception:
        return "cudaclimb gave no result: %s" % res.stderr.strip()[:80], True
    if r["status"] != "ok" or r["achieved_occupancy"] < 0:
        return "%s %s %s" % (r["status"], r["message"], r["counters_note"]), False
    ks = entries(lesson, sid)
    per = ncu(binary, lname, sid, ks)
    if not per:
        return "ncu profiled none of %s" % ks, True
    avg = lambda k, m: sum(per[k][m]) / len(per[k][m]) if m in per.get(k, {}) else 0.0
    ours = [r["achieved_occupancy"] * 100, r["dram_bytes_read"] + r["dram_bytes_write"], r["smem_conflicts_ld"] + r["smem_conflicts_st"]]
    theirs = [avg(ks[0], METRICS[0]), sum(avg(k, METRICS[1]) + avg(k, METRICS[2]) for k in per),
              sum(avg(k, METRICS[3]) + avg(k, METRICS[4]) for k in per)]
    return (ours, theirs), False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/cudaclimb")
    ap.add_argument("--tolerance", type=float, default=5)
    ap.add_argument("--repeat", type=int, default=1, help="runs per side; the table compares the means")
    ap.add_argument("--stages", default="", help="comma list of stage ids to keep (default: all)")
    ap.add_argument("lessons", nargs="*")
    a = ap.parse_args()
    keep = set(x for x in a.stages.split(",") if x)
    names = a.lessons or [l.split()[0] for l in subprocess.run([a.bin, "list"], capture_output=True, text=True).stdout.splitlines()]
    bad = 0
    print("%-24s %9s %9s %6s | %12s %12s %6s | %10s %10s %6s" % ("stage", "occ ours", "occ ncu", "diff", "DRAM ours", "DRAM ncu", "diff",
                                                                   "bank ours", "bank ncu", "diff"))
    for lname in names:
        lesson = yaml.safe_load(open("lessons/%s.yaml" % lname))
        for st in lesson["stages"]:
            sid = st["id"]
            if keep and sid not in keep:
                continue
            runs, msg = [], None
            for _ in range(max(1, a.repeat)):
                got, failed = measure(a.bin, lname, lesson, sid)
                if isinstance(got, str):
                    msg = got; bad += failed; break
                runs.append(got)
            if msg:
                print("%-24s %s" % (lname + "/" + sid, msg)); continue
            mean = lambda side, i: sum(r[side][i] for r in runs) / len(runs)
            o = [mean(0, i) for i in range(3)]
            n = [mean(1, i) for i in range(3)]
            d = [rel(o[i], n[i]) for i in range(3)]
            flag = "" if all(x is not None and x <= a.tolerance for x in d) else "  !"
            bad += bool(flag)
            spread = ""
            if len(runs) > 1:
                spread = "  (bank conflicts per run: ours %s; ncu %s)" % (
                    " ".join("%.4g" % r[0][2] for r in runs), " ".join("%.4g" % r[1][2] for r in runs))
            print("%-24s %8.1f%% %8.1f%% %5.1f%% | %12.4g %12.4g %5.1f%% | %10.4g %10.4g %5.1f%%%s%s" % (
                lname + "/" + sid, o[0], n[0], d[0], o[1], n[1], d[1], o[2], n[2], d[2], flag, spread))
            sys.stdout.flush()
    print("\n%d stage(s) outside %.0f%%" % (bad, a.tolerance))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
