#!/usr/bin/env python3
"""Checks cudaclimb's hardware counters against Nsight Compute for every stage of every lesson.

For each stage: `cudaclimb run LESSON/STAGE --json` reads the counters through CUPTI; the same command
with --no-counters runs again under `ncu` restricted to the stage's own kernels. Both sides leave
clocks and caches alone (ncu --clock-control none --cache-control none; cudaclimb never changes
them). Per stage it compares achieved occupancy (of the stage's first kernel), DRAM bytes (read +
write, per execution of the stage: ncu's per-launch values summed over the stage's kernels) and
shared-memory bank conflicts (load + store). Prints a table with the relative differences.

usage: scripts/ncu-lessons.py [--bin build/cudaclimb] [--tolerance 5] [LESSON ...]
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/cudaclimb")
    ap.add_argument("--tolerance", type=float, default=5)
    ap.add_argument("lessons", nargs="*")
    a = ap.parse_args()
    names = a.lessons or [l.split()[0] for l in subprocess.run([a.bin, "list"], capture_output=True, text=True).stdout.splitlines()]
    bad = 0
    print("%-24s %9s %9s %6s | %12s %12s %6s | %10s %10s %6s" % ("stage", "occ ours", "occ ncu", "diff", "DRAM ours", "DRAM ncu", "diff",
                                                                   "bank ours", "bank ncu", "diff"))
    for lname in names:
        lesson = yaml.safe_load(open("lessons/%s.yaml" % lname))
        for st in lesson["stages"]:
            sid = st["id"]
            res = subprocess.run([a.bin, "run", "%s/%s" % (lname, sid), "--json", "--reps", "3", "--timeout", "120"],
                                 capture_output=True, text=True)
            try:
                r = json.loads(res.stdout)["results"][0]
            except Exception:
                print("%-24s cudaclimb gave no result: %s" % (lname + "/" + sid, res.stderr.strip()[:80])); bad += 1; continue
            if r["status"] != "ok" or r["achieved_occupancy"] < 0:
                print("%-24s %s %s %s" % (lname + "/" + sid, r["status"], r["message"], r["counters_note"])); continue
            ks = entries(lesson, sid)
            per = ncu(a.bin, lname, sid, ks)
            if not per:
                print("%-24s ncu profiled none of %s" % (lname + "/" + sid, ks)); bad += 1; continue
            avg = lambda k, m: sum(per[k][m]) / len(per[k][m]) if m in per.get(k, {}) else 0.0
            occ_n = avg(ks[0], METRICS[0])
            dram_n = sum(avg(k, METRICS[1]) + avg(k, METRICS[2]) for k in per)
            bank_n = sum(avg(k, METRICS[3]) + avg(k, METRICS[4]) for k in per)
            occ_o = r["achieved_occupancy"] * 100
            dram_o = r["dram_bytes_read"] + r["dram_bytes_write"]
            bank_o = r["smem_conflicts_ld"] + r["smem_conflicts_st"]
            d = [rel(occ_o, occ_n), rel(dram_o, dram_n), rel(bank_o, bank_n)]
            flag = "" if all(x is not None and x <= a.tolerance for x in d) else "  !"
            bad += bool(flag)
            print("%-24s %8.1f%% %8.1f%% %5.1f%% | %12.4g %12.4g %5.1f%% | %10.4g %10.4g %5.1f%%%s" % (
                lname + "/" + sid, occ_o, occ_n, d[0], dram_o, dram_n, d[1], bank_o, bank_n, d[2], flag))
            sys.stdout.flush()
    print("\n%d stage(s) outside %.0f%%" % (bad, a.tolerance))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
