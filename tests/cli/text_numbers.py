#!/usr/bin/env python3
"""Every number a lesson's text quotes as fact is a placeholder or names its card (#47 item 2), run by
tests/cli/text_numbers.sh.

usage: text_numbers.py CUDACLIMB ALLOW RECORDED_DIR

The texts are the lesson's summary and each stage's explain and bottleneck as `show LESSON` prints
them with no recording (CUDACLIMB_RECORDED=, so a placeholder reads "?" and is never a number here).
A quoted figure is a number with a unit: 1.9x, 47%, 0.2 ms, 360 ns, 3000 GB/s, 38 TFLOP/s, 12.9 GB,
and the upper end of a range, "1.00-1.02 ms" (text in `backticks` is code and left out). Each must
be in a sentence that names its card, H100 or H200 (a number belongs to the first card named after
it in the sentence, else the last one before it), or says it holds on "both cards" (then it is
checked against each), and be within 10% of some figure of that card's recording of the lesson
with the same unit: times (and a time per step where the stage's settings have steps=N), rates,
shares (of the peaks, the hit rates, the top stalls, occupancy, the check's errors, and 1 - r for a
time ratio r, "takes 2% off"), time ratios and norm-wise error ratios between any two of its runs,
DRAM bytes. A share (%) in a stage's text must be one of that stage's, the stage's before it or the
baselines': shares are many, and nearly any percentage is within 10% of one of the whole lesson's.
Sizes worked from the parameters are written in binary units (256 MiB, 16 KiB), which are not
figures here. A figure that is no
recorded measurement (a datasheet's, a paper's, another run's or size's) is listed in ALLOW with
its reason: "LESSON[/STAGE] FIGURE reason", FIGURE as the text writes it with "_" for a space
("268_MB").
One line per lesson: PASS, or FAIL with each figure and why.
"""
import glob, json, os, re, subprocess, sys

CARDS = re.compile(r"\bH(100|200)\b")
BOTH = re.compile(r"\bboth (cards|recordings|GPUs)\b")   # a figure said of both: checked against each
FIG = re.compile(r"(?<![\w.^/])(?<![^\d]-)(\d+(?:,\d{3})*(?:\.\d+)?)(x(?![\w\d])|\s?(?:%|ms\b|us\b|µs\b|ns\b|GB/s|TB/s|"
                 r"TFLOP/s|GFLOP/s|TOPS\b|GB\b|MB\b))")
UNIT = {"x": "x", "%": "%", "ms": "s", "us": "s", "µs": "s", "ns": "s", "GB/s": "B/s", "TB/s": "B/s",
        "TFLOP/s": "F/s", "GFLOP/s": "F/s", "TOPS": "F/s", "GB": "B", "MB": "B"}
SCALE = {"ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9, "GB/s": 1e9, "TB/s": 1e12, "TFLOP/s": 1e12,
         "GFLOP/s": 1e9, "TOPS": 1e12, "GB": 1e9, "MB": 1e6}
PCT = ("pct_attainable_bw", "pct_theoretical_bw", "pct_compute_peak", "dram_pct", "l1_hit_pct", "l2_hit_pct",
       "l1_pct", "sm_pct", "tensor_pct", "branch_uniform_pct")


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and v not in (float("inf"),)


def figures(path, stage=None):
    """The recording's figures by unit: {"x": [...], "%": [...], "s": [...], ...}; with stage, only
    from that stage's run, the stage before it and the baselines (a share quoted in a stage's text)."""
    d = json.load(open(path))
    if stage is not None:
        order = [r["stage"] for r in d["results"] if not r["stage"].startswith("baseline")]
        keep = {stage} | ({order[order.index(stage) - 1]} if stage in order and order.index(stage) > 0 else set())
        d["results"] = [r for r in d["results"] if r["stage"] in keep or r["stage"].startswith("baseline")]
    f = {u: [] for u in ("x", "%", "s", "B/s", "F/s", "B")}
    ms = {}
    for r in d["results"]:
        if not num(r.get("ms_median")) or r["ms_median"] <= 0: continue
        ms[r["stage"]] = r["ms_median"]
        for k in ("ms_median", "ms_min", "ms_max", "kernel_ms", "bound_ms", "pair_ms_median"):
            if num(r.get(k)) and r[k] > 0: f["s"].append(r[k] * 1e-3)
        st = re.search(r"\bsteps=(\d+)", r.get("settings") or "")   # a chase's time per dependent step
        if st and int(st.group(1)) > 0: f["s"].append(r["ms_median"] * 1e-3 / int(st.group(1)))
        for s in r.get("steps") or []:
            if num(s.get("ms_median")) and s["ms_median"] > 0: f["s"].append(s["ms_median"] * 1e-3)
        if num(r.get("gbps")): f["B/s"].append(r["gbps"] * 1e9)
        if num(r.get("gflops")): f["F/s"].append(r["gflops"] * 1e9)
        for k in PCT:
            if num(r.get(k)): f["%"].append(r[k])
        for k in ("max_rel_err", "norm_rel_err"):   # the check's errors, quoted as shares ("0.31%")
            if num(r.get(k)) and r[k] > 0: f["%"].append(100 * r[k])
        for k in ("achieved_occupancy", "occ_theoretical"):
            if num(r.get(k)) and r[k] >= 0: f["%"].append(100 * r[k])
        for m in re.finditer(r"(\d+(?:\.\d+)?)%", r.get("stalls") or ""): f["%"].append(float(m.group(1)))
        dram = sum(r[k] for k in ("dram_bytes_read", "dram_bytes_write") if num(r.get(k)))
        if dram > 0:
            f["B"] += [dram] + [r[k] for k in ("dram_bytes_read", "dram_bytes_write") if num(r.get(k))]
            if num(r.get("bytes")) and r["bytes"] > 0: f["x"].append(dram / r["bytes"])
        for k in ("bytes", "working_set"):
            if num(r.get(k)) and r[k] > 0: f["B"].append(r[k])
        p = r.get("pair_ratio")
        if num(p) and p > 0:
            f["x"] += [p, 1 / p]
            f["%"] += [abs(1 - p) * 100, abs(1 - 1 / p) * 100]
    for a in ms.values():
        for b in ms.values():
            f["x"].append(a / b)
            f["%"].append(abs(1 - a / b) * 100)
    errs = [r["norm_rel_err"] for r in d["results"] if num(r.get("norm_rel_err")) and r["norm_rel_err"] > 0]
    f["x"] += [a / b for a in errs for b in errs]   # "8x TF32's error": error ratios between two runs
    return f


def texts(binary, lesson):
    """[(where, text)]: the summary (where = lesson) and each stage's explain + bottleneck."""
    env = dict(os.environ, CUDACLIMB_RECORDED="")
    out = subprocess.run([binary, "show", lesson], capture_output=True, text=True, env=env, timeout=60).stdout
    parts, where, cur, mode = [], lesson, [], "summary"
    for line in out.split("\n")[1:]:
        m = re.match(r"^(\d+)\. (\w+) - ", line)
        if m:
            if cur: parts.append((where, " ".join(cur)))
            where, cur, mode = "%s/%s" % (lesson, m.group(2)), [], "title"
            continue
        s = line.strip()
        if mode == "summary" and re.match(r"^(Read first|Parameters|Baseline|Tunables):", s):
            parts.append((where, " ".join(cur))); cur, mode = [], "skip"; continue
        if mode == "title":
            if line.startswith("   ") and not line.startswith("    ") and s and not re.match(r"^[A-Z_]+ =", s): mode = "text"
            else: continue
        if mode == "text" and (s.startswith("Claims, checked") or s.startswith("Exercise") or s.startswith("Figures ")):
            mode = "skip"; continue
        if mode in ("summary", "text") and s != "Bottleneck:": cur.append(s)
    if cur: parts.append((where, " ".join(cur)))
    return parts


def sentences(text):
    text = re.sub(r"`[^`]*`", "`code`", text)
    return re.split(r"(?<=[.!?])\s+(?=[A-Z(\"])", text)


def main():
    binary, allow_file, rec_dir = sys.argv[1:4]
    allow = {}
    for line in open(allow_file):
        if line.strip() and not line.startswith("#"):
            w, fig, _ = (line.split(None, 2) + ["", ""])[:3]
            allow.setdefault((w, fig), 0)
    lessons = sorted({re.sub(r"^.*-(\w+)\.json$", r"\1", p) for p in glob.glob(rec_dir + "/h100/*.json")})
    recs, paths, shares = {}, {}, {}
    for card in ("h100", "h200"):
        for p in glob.glob("%s/%s/*.json" % (rec_dir, card)):
            m = re.match(r".*-(\w+)\.json$", p)
            if m: recs[(card, m.group(1))] = figures(p); paths[(card, m.group(1))] = p
    for lesson in lessons:
        bad, n = [], 0
        for where, text in texts(binary, lesson):
            for sent in sentences(text):
                cards = [(m.start(), "h" + m.group(1)) for m in CARDS.finditer(sent)]
                for m in FIG.finditer(sent):
                    if sent[m.end():m.end() + 4] == " HBM": continue   # "H100 80GB HBM3": a name
                    n += 1
                    raw, u = m.group(1), m.group(2).strip()
                    fig = raw + ("_" if " " in m.group(2) else "") + u   # "268_MB" for "268 MB"
                    key = next((k for k in ((where, fig), (lesson, fig)) if k in allow), None)
                    if key:
                        allow[key] += 1; continue
                    after = [c for p, c in cards if p > m.start()]
                    before = [c for p, c in cards if p < m.start()]
                    card = after[0] if after else before[-1] if before else None
                    ctx = sent[max(0, m.start() - 50):m.end() + 30]
                    if not card and not BOTH.search(sent):
                        bad.append("%s: %s names no card: ...%s..." % (where, fig, ctx)); continue
                    v = float(raw.replace(",", "")) * SCALE.get(u, 1)
                    for card in [card] if card else ["h100", "h200"]:
                        cand = recs.get((card, lesson), {}).get(UNIT[u], [])
                        if u == "%" and "/" in where and (card, lesson) in paths:   # a stage's share: its own
                            key = (card, where)
                            if key not in shares: shares[key] = figures(paths[(card, lesson)], where.split("/")[1])["%"]
                            cand = shares[key]
                        if not any(abs(v - c) <= 0.1 * abs(c) for c in cand):
                            near = min(cand, key=lambda c: abs(v - c) / abs(c) if c else 1e9, default=None)
                            bad.append("%s: %s is no figure of the %s recording within 10%% (nearest %s): ...%s..." % (
                                where, fig, card.upper(), "%.4g" % (near / SCALE.get(u, 1)) if near else "none", ctx))
        for b in bad: print("FAIL text numbers %s: %s" % (lesson, b))
        if not bad: print("PASS text numbers %s: %d quoted figures, each a recording's or listed" % (lesson, n))
    for (w, fig), used in sorted(allow.items()):
        if not used: print("FAIL text numbers: %s %s is listed in %s but no text quotes it" % (w, fig, allow_file))


main()
