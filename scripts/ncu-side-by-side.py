#!/usr/bin/env python3
"""One stage's counters beside Nsight Compute's, as a Markdown table (docs/how-it-works.md, "The
counters beside Nsight Compute's").

usage: scripts/ncu-side-by-side.py MINE.json NCU [NCU2]

MINE.json is `cudaclimb run LESSON/STAGE --seed 1 --json` (its last result is read). NCU is the output
of the command line that `cudaclimb profile LESSON/STAGE --ncu --seed 1` prints, either as printed by
`--exec` (ncu's table of "Metric Name  Metric Unit  Metric Value", units such as Mbyte turned back
into bytes) or run by hand with `--csv --print-units base` added (full counts; preferred). Prints
one row per field of the mapping table that both sides have: the field, cudaclimb's value, the ncu
metric (a sum or the largest of several where cudaclimb adds or picks them), ncu's value and the
difference (cudaclimb - ncu) / ncu in % (for two counts under 1,000 the difference itself; "0 at
ncu's two decimals" where cudaclimb's value rounds to ncu's). Stall shares are computed from ncu's 17
smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio values (each over their sum) and
set against the top three of the JSON's `stalls`, in percentage points (the JSON keeps whole %).
Below the table: ncu's own top three, and for the metrics taken over the elapsed time
(`dram_pct`, `sm_pct`) the ratio of the two sides' elapsed times that the DRAM figures imply (bytes
over dram_pct; in ms too, taking the JSON's bw_theoretical_gbps as the peak), beside ncu's sm_pct
over cudaclimb's, which moves with it where the work is the same.
With NCU2, another ncu run of the same stage, each metric's difference between the two ncu runs is
printed last (what separate runs of one profiler move).

ncu prints percentages and ratios with two decimals, so differences of that order are rounding.
With several launches in NCU, .sum metrics are added and the others averaged without weights
(said on standard error): add gpu__time_duration.sum to weigh them by hand.
"""
import csv
import io
import json
import re
import sys

STALLS = ["long_scoreboard", "barrier", "mio_throttle", "short_scoreboard", "wait", "not_selected",
          "math_pipe_throttle", "lg_throttle", "membar", "dispatch_stall", "drain", "imc_miss",
          "no_instruction", "sleeping", "branch_resolving", "tex_throttle", "selected"]
STALL_METRIC = "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio"

# (JSON field, [ncu metrics], how: "one" | "sum" | "max" | "pct" (the JSON's fraction x 100) | "tensor"
# (hmma + imma, or gmma where larger: cudaclimb's rule since 660841e, as Hopper's hmma count includes
# every wgmma), kind)
ROWS = [
    ("dram_bytes_read", ["dram__bytes_read.sum"], "one", "count"),
    ("dram_bytes_write", ["dram__bytes_write.sum"], "one", "count"),
    ("dram_pct", ["gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"], "one", "pct"),
    ("l1_hit_pct", ["l1tex__t_sector_hit_rate.pct"], "one", "pct"),
    ("l2_hit_pct", ["lts__t_sector_hit_rate.pct"], "one", "pct"),
    ("achieved_occupancy", ["sm__warps_active.avg.pct_of_peak_sustained_active"], "pct", "pct"),
    ("smem_conflicts_ld", ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"], "one", "count"),
    ("smem_conflicts_st", ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"], "one", "count"),
    ("smem_wavefronts", ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                         "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"], "sum", "count"),
    ("warp_efficiency", ["smsp__thread_inst_executed_per_inst_executed.ratio"], "one", "ratio"),
    ("warp_efficiency_pred_on", ["smsp__thread_inst_executed_pred_on_per_inst_executed.ratio"], "one", "ratio"),
    ("branch_uniform_pct", ["smsp__sass_average_branch_targets_threads_uniform.pct"], "one", "pct"),
    ("sm_pct", ["sm__throughput.avg.pct_of_peak_sustained_elapsed"], "one", "pct"),
    ("l1_pct", ["l1tex__throughput.avg.pct_of_peak_sustained_active"], "one", "pct"),
    ("gld_sectors_per_request", ["l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"], "one", "ratio"),
    ("tensor_inst", ["sm__inst_executed_pipe_tensor_op_hmma.sum", "sm__inst_executed_pipe_tensor_op_gmma.sum",
                     "sm__inst_executed_pipe_tensor_op_imma.sum"], "tensor", "count"),
    ("tensor_pct", ["sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
                    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
                    "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active"], "max", "pct"),
]

UNITS = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12}


def number(text):
    t = text.strip().replace(",", "")
    try:
        return float(t)
    except ValueError:
        return None   # "n/a": a metric this chip lacks


def read_ncu(path):
    """metric -> value, over the launches in the file (sums added, the rest averaged)."""
    text = open(path, errors="replace").read()
    per = {}   # metric -> [value per launch]
    rows = [l for l in text.splitlines() if l.startswith('"')]
    if rows:
        for r in csv.DictReader(io.StringIO("\n".join(rows))):
            v = number(r["Metric Value"])
            if v is not None:
                v *= UNITS.get(r["Metric Unit"], 1)
            per.setdefault(r["Metric Name"], []).append(v)
    else:
        # ncu's table: name, an optional unit ("(!)" before n/a), the value
        pat = re.compile(r"^\s+([a-z0-9_]+__[A-Za-z0-9_.]+)\s+(?:(\S+)\s+)?(\S+(?: \S+)?)\s*$")
        for line in text.splitlines():
            m = pat.match(line)
            if not m:
                continue
            v = number(m.group(3).split()[-1])
            if v is not None:
                v *= UNITS.get(m.group(2) or "", 1)
            per.setdefault(m.group(1), []).append(v)
    if not per:
        sys.exit("ncu-side-by-side: no metrics in %s" % path)
    n = max(len(v) for v in per.values())
    if n > 1:
        print("ncu-side-by-side: %s holds %d launches: .sum metrics added, the others averaged without weights"
              % (path, n), file=sys.stderr)
    out = {}
    for k, vs in per.items():
        vs = [v for v in vs if v is not None]
        if not vs:
            out[k] = None
        elif k.endswith(".sum"):
            out[k] = sum(vs)
        else:
            out[k] = sum(vs) / len(vs)
    return out


def ncu_value(ncu, metrics, how):
    vs = [ncu.get(m) for m in metrics]
    have = [v for v in vs if v is not None]
    if not have:
        return None
    if how == "sum":
        return sum(have)
    if how == "max":
        return max(have)
    if how == "tensor":   # metrics: hmma, gmma, imma
        hmma, gmma, imma = (v or 0 for v in vs)
        return max(hmma + imma, gmma)
    return have[0]


def fmt(v, kind):
    if v is None:
        return "-"
    if kind == "count":
        return "{:,}".format(int(round(v)))
    return "%.2f" % v


def diff(ours, theirs, kind):
    if ours is None or theirs is None:
        return "-"
    if kind == "count" and abs(ours) < 1000 and abs(theirs) < 1000:
        return "%+d (counts under 1,000)" % round(ours - theirs) if round(ours) != round(theirs) else "0"
    if ours == theirs:
        return "0"
    if kind != "count" and round(ours, 2) == round(theirs, 2):
        return "0 at ncu's two decimals"
    d = (ours - theirs) / abs(theirs) * 100
    if abs(d) < 0.01:
        return "%+.4f%%" % d
    return "%+.2f%%" % d if abs(d) < 1 else "%+.1f%%" % d


def short(first, other):
    """other with what it shares with first (up to an underscore) left out: `..._st.sum`."""
    i = 0
    while i < min(len(first), len(other)) and first[i] == other[i]:
        i += 1
    i = other.rfind("_", 0, i + 1)
    tail = other[i:] if i > 0 else other
    if first.split(".", 1)[-1] == other.split(".", 1)[-1] and tail.count(".") and len(tail.split(".", 1)[1]) > 8:
        tail = tail.split(".", 1)[0] + "..."   # the same long suffix as the first: `..._op_hmma_cycles_active...`
    return "`...%s`" % tail if i > 0 else "`%s`" % tail


def shares(ncu):
    ratios = {s: ncu.get(STALL_METRIC % s) for s in STALLS}
    total = sum(v for v in ratios.values() if v is not None)
    return {s: (v / total * 100 if v is not None and total > 0 else None) for s, v in ratios.items()}, total


def main(argv):
    if len(argv) not in (3, 4) or argv[1] in ("-h", "--help"):
        sys.exit(__doc__.strip())
    mine = json.load(open(argv[1]))
    r = mine["results"][-1]
    ncu = read_ncu(argv[2])
    print("| cudaclimb field | cudaclimb value | ncu metric | ncu value | difference |")
    print("| --- | --- | --- | --- | --- |")
    for field, metrics, how, kind in ROWS:
        ours = r.get(field)
        if ours is None or ours == -1:
            continue
        theirs = ncu_value(ncu, metrics, how)
        if theirs is None:
            continue
        shown = "%.4f (%.2f%%)" % (ours, ours * 100) if how == "pct" else fmt(ours, kind)
        if how == "pct":
            ours = ours * 100
        have = [m for m in metrics if ncu.get(m) is not None]
        lacks = [m for m in metrics if m not in have]
        names = "`%s`" % have[0] + "".join((" + " if how == "sum" else ", ") + short(have[0], m) for m in have[1:])
        if how == "max":
            names = "largest of " + names
        if how == "tensor":
            names = "`%s` + %s, or %s where larger" % (metrics[0], short(metrics[0], metrics[2]), short(metrics[0], metrics[1]))
        if lacks:
            names += " (%s: n/a)" % ", ".join(short(have[0], m) for m in lacks)
        theirs_shown = fmt(theirs, kind)
        if how == "sum" and len(have) > 1:
            theirs_shown += " (%s)" % " + ".join(fmt(ncu[m], kind) for m in have)
        if how == "tensor":
            theirs_shown += " (%s)" % ", ".join("%s %s" % (m.split("_op_")[1].split(".")[0], fmt(ncu[m], kind)) for m in have)
        print("| `%s` | %s | %s | %s | %s |" % (field, shown, names, theirs_shown, diff(ours, theirs, kind)))
    share, total = shares(ncu)
    for item in (r.get("stalls") or "").split(","):
        m = re.match(r"\s*(\w+) (\d+)%", item)
        if not m or m.group(1) not in share or share[m.group(1)] is None:
            continue
        s, ours = m.group(1), int(m.group(2))
        print("| `stalls`: %s | %d%% | `..._stalled_%s_per_issue_active.ratio` over the 17's sum | %.1f%% (%.2f / %.2f) | %+.1f points |"
              % (s, ours, s, share[s], ncu[STALL_METRIC % s], total, ours - share[s]))
    top = sorted(((v, s) for s, v in share.items() if v is not None), reverse=True)[:3]
    print()
    print("ncu's 17 stall ratios add up to %.2f warps per issued instruction; its top three: %s"
          % (total, ", ".join("%s %.1f%%" % (s, v) for v, s in top)))
    # _elapsed metrics average over the elapsed time: bytes / dram_pct is proportional to it on each side
    rd, wr = r.get("dram_bytes_read", -1), r.get("dram_bytes_write", -1)
    b_ours = rd + wr if rd > 0 and wr > 0 else -1
    b_ncu = (ncu.get("dram__bytes_read.sum") or 0) + (ncu.get("dram__bytes_write.sum") or 0)
    p_ours, p_ncu = r.get("dram_pct"), ncu.get("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed")
    if b_ours > 0 and b_ncu > 0 and p_ours and p_ncu:
        el = (b_ours / p_ours) / (b_ncu / p_ncu)
        line = "elapsed time implied by the DRAM bytes over dram_pct: cudaclimb's %.3fx ncu's" % el
        bw = mine.get("device", {}).get("bw_theoretical_gbps") or 0
        if bw > 0:
            line += " (%.4f ms against %.4f ms at a peak of %.0f GB/s)" % (
                b_ours / (p_ours / 100 * bw * 1e9) * 1e3, b_ncu / (p_ncu / 100 * bw * 1e9) * 1e3, bw)
        s_ours, s_ncu = r.get("sm_pct"), ncu.get("sm__throughput.avg.pct_of_peak_sustained_elapsed")
        if s_ours and s_ncu:
            line += "; sm_pct: ncu's over cudaclimb's %.3fx" % (s_ncu / s_ours)
        print(line)
    if len(argv) == 4:
        other = read_ncu(argv[3])
        print()
        print("the two ncu runs (%s against %s), where they differ:" % (argv[2], argv[3]))
        for k in sorted(ncu):
            a, b = ncu[k], other.get(k)
            if a is None or b is None or a == b:
                continue
            d = "%+.2f%%" % ((a - b) / abs(b) * 100) if b else "%+g" % (a - b)
            print("  %-75s %16s %16s  %s" % (k, "%.10g" % a, "%.10g" % b, d))


if __name__ == "__main__":
    main(sys.argv)
