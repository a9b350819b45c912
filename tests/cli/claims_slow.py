#!/usr/bin/env python3
"""Claims that a 30% slower run contradicts (#47 item 2), run by tests/cli/claims_slow.sh.

usage: claims_slow.py CUDACLIMB EXEMPT RECORDING...

For each recording (bench LESSON --json) and each stage of it "whose point is speed" (one with a claim
that bounds its time from above: time_vs_X <= / <, speedup_vs_X >= / >, or a floor on gbps, gflops,
pct_attainable_bw, pct_theoretical_bw, pct_compute_peak), a copy of the recording with that stage
alone made 1.3x slower (its times x 1.3; its rates, shares and per-pair ratio / 1.3) is replayed
through the lesson's claims: at least one of the stage's claims must be contradicted. One PASS or
FAIL line per recording; a FAIL names each stage no claim caught, with its claims' values. EXEMPT
lists stages left out, one a line (LESSON/STAGE, then the reason); one that no longer needs it fails.
"""
import json, os, re, subprocess, sys, tempfile

SLOW = 1.3
TIMES = ("ms_median", "ms_min", "ms_max", "kernel_ms")
RATES = ("gbps", "gflops", "pct_attainable_bw", "pct_theoretical_bw", "pct_compute_peak",
         "pair_ratio", "pair_ratio_p20", "pair_ratio_p80")
# A claim that says "at least this fast": an upper bound on a time, a lower bound on a rate.
FAST = re.compile(r"\b(time_vs_\w+|ms|kernel_ms)\s*<=?(?!=)|\b(speedup_vs_\w+|gbps|gflops|pct_attainable_bw|"
                  r"pct_theoretical_bw|pct_compute_peak)\s*>=?")


def bench(binary, path, lesson, case=""):
    """The recording replayed through bench, in its case (a file named ...-LESSON.CASE.json)."""
    extra = ["--case", case] if case else []
    out = subprocess.run([binary, "--replay", path, "bench", lesson, "--json"] + extra, capture_output=True,
                         text=True, timeout=60).stdout
    return json.loads(out)


def main():
    binary, exempt_file, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    exempt = {l.split()[0] for l in open(exempt_file) if l.strip() and not l.startswith("#")}
    used = set()
    tmp = tempfile.mkdtemp()
    for path in files:
        gpu = os.path.basename(os.path.dirname(path))
        name = "claims slow %s %s" % (gpu, os.path.basename(path))
        try:
            rec = json.load(open(path))
            lesson = rec["results"][0]["lesson"]
            m = re.search(r"-%s\.(\w+)\.json$" % re.escape(lesson), path)
            case = m.group(1) if m else ""
            base = bench(binary, path, lesson, case)
        except Exception as e:
            print("FAIL %s: not replayable (%s)" % (name, e))
            continue
        speed = [r["stage"] for r in base["results"]
                 if any(c["state"] == "holds" and FAST.search(c["expect"]) for c in r.get("claims", []))]
        loose = []
        # a stage recorded against another yardstick than the one the lesson now pairs it with (a
        # baseline changed since the recording): its baseline claims cannot be judged from it
        # (the replay keeps the recorded pairing, but lists only the baselines the lesson uses now)
        recorded = {r["stage"]: r.get("baseline", "") for r in rec["results"]}
        used_now = {r["stage"] for r in base["results"] if r["stage"].startswith("baseline")}
        moved = [s for s in speed if recorded.get(s, "") and recorded[s] not in used_now]
        for stage in speed:
            if "%s/%s" % (lesson, stage) in exempt:
                used.add("%s/%s" % (lesson, stage)); continue
            d = json.loads(json.dumps(rec))
            for r in d["results"]:
                if r["stage"] != stage: continue
                for k in TIMES:
                    if isinstance(r.get(k), (int, float)) and r[k] > 0: r[k] *= SLOW
                for k in RATES:
                    if isinstance(r.get(k), (int, float)) and r[k] > 0: r[k] /= SLOW
            slow = os.path.join(tmp, "slow.json")
            json.dump(d, open(slow, "w"))
            got = bench(binary, slow, lesson, case)
            for r in got["results"]:
                if r["stage"] != stage: continue
                cs = r.get("claims", [])
                if not any(c["state"] == "contradicted" for c in cs) and stage in moved:
                    print("SKIP %s: 1.3x slower %s contradicts none of the claims it can judge, and it was recorded against "
                          "%s, which the lesson no longer pairs it with: record the lesson again" % (name, stage, recorded[stage]))
                elif not any(c["state"] == "contradicted" for c in cs):
                    loose.append("%s (%s)" % (stage, "; ".join("%s: %s" % (c["expect"], c.get("values", ""))
                                                                for c in cs if c["state"] == "holds")))
        if loose:
            for l in loose: print("FAIL %s: 1.3x slower contradicts no claim: %s" % (name, l))
        else:
            n = sum("%s/%s" % (lesson, x) not in exempt for x in speed)
            print("PASS %s: %d speed stages, each contradicted when 1.3x slower%s" % (name, n,
                  " (%d exempt)" % (len(speed) - n) if len(speed) > n else ""))
    for e in sorted(exempt - used):
        print("FAIL claims slow: %s is exempt in %s but is no speed stage of any recording" % (e, exempt_file))


main()
