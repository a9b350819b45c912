#!/usr/bin/env python3
"""Each lesson's top stage against its library, from bench --json recordings (assets/recorded/GPU/ or
CLAIMS_KEEP folders): one Markdown row per lesson and card with the top stage (the ladder's last stage
that ran), its median time, the baseline it is paired with and that baseline's time, and the per-pair
ratio (the stage's speed over the baseline's: above 1 is faster); the best stage too where it is not
the top one. With --all, every stage that has a baseline.
Usage: scripts/ladder-table.py [--all] FILE.json...   (the newest file per lesson and card is used)"""
import json
import os
import sys


def rows(path, every):
    d = json.load(open(path))
    card = d.get("device", {}).get("name", "?").replace("NVIDIA ", "")
    res = d.get("results", [])
    base = {r["stage"]: r for r in res if r["stage"].startswith("baseline")}
    stages = [r for r in res if not r["stage"].startswith("baseline") and r.get("status") == "ok"]
    for r in stages:   # older recordings name no baseline: the lesson's one
        if r.get("pair_ratio") and not r.get("baseline") and "baseline" in base:
            r["baseline"] = "baseline"
    paired = [r for r in stages if r.get("pair_ratio") and r.get("baseline") in base]
    if not stages:
        return []
    lesson = res[0].get("lesson", os.path.basename(path))
    top = stages[-1]
    pick = paired if every else [top] + ([max(paired, key=lambda r: r["pair_ratio"])] if paired else [])
    out, seen = [], set()
    for r in pick:
        if r["stage"] in seen:
            continue
        seen.add(r["stage"])
        b = base.get(r.get("baseline") or "")
        mark = "" if r is top else " (best)" if not every else ""
        out.append("| %s | %s | %s%s | %.4f | %s | %s | %s |" % (
            lesson, card, r["stage"], mark, r["ms_median"], b["stage"] if b else "-",
            "%.4f" % b["ms_median"] if b else "-", "%.3fx" % r["pair_ratio"] if r.get("pair_ratio") and b else "-"))
    return out


def main(argv):
    every = "--all" in argv
    files = [a for a in argv if a != "--all"]
    print("| lesson | card | stage | ms | paired with | its ms | per pair |")
    print("|---|---|---|---|---|---|---|")
    for f in sorted(files):
        try:
            for line in rows(f, every):
                print(line)
        except (OSError, ValueError, KeyError) as e:
            print("| %s | - | unreadable: %s | | | | |" % (f, e))


if __name__ == "__main__":
    main(sys.argv[1:])
