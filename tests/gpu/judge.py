#!/usr/bin/env python3
"""The common verdict of the GPU tests over one `cudaclimb run|bench --json` file.

judge.py FILE [--claims[=STAGE,...]] [--unchecked STAGE,...] [--stages N] [--timing STAGE=TEXT ...]
         [--reps STAGE=N ...]

Every result must have status ok (a stage this GPU cannot run, status unsupported, is a note), and
every stage but the baselines and the --unchecked ones (check: false) must be checked and pass.
--claims: a contradicted claim fails (of the named stages only, with =STAGE,...); the others are
noted. --stages N: exactly N stages besides the baselines. --timing STAGE=TEXT: that stage's result
says it was timed so (the `timing` field; "" for the tool's own method); --reps STAGE=N: that
stage ran N timed repetitions. Prints one info line a
result, the stages seen, and the problems; exits 1 on any problem or an empty file, else 0."""
import json
import sys


def main(argv):
    path, claims, unchecked, want, timing, reps = None, None, set(), 0, {}, {}
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--claims" or a.startswith("--claims="):
            claims = set(a.split("=", 1)[1].split(",")) if "=" in a else set()
        elif a == "--unchecked":
            i += 1
            unchecked |= set(argv[i].split(","))
        elif a == "--stages":
            i += 1
            want = int(argv[i])
        elif a == "--timing":
            i += 1
            st, _, text = argv[i].partition("=")
            timing[st] = text
        elif a == "--reps":
            i += 1
            st, _, n = argv[i].partition("=")
            reps[st] = int(n)
        elif path is None:
            path = a
        else:
            print("judge.py: unexpected argument %r" % a)
            return 2
        i += 1
    try:
        results = json.load(open(path)).get("results", [])
    except Exception as e:
        print("    no JSON in %s (%s)" % (path, e))
        return 1
    bad, seen = [], []
    for r in results:
        st = r.get("stage")
        seen.append(st)
        if r.get("status") == "unsupported":
            print("    note: %s unsupported here: %s" % (st, r.get("message", "")))
            continue
        if r.get("status") != "ok":
            bad.append("%s: status %s %s" % (st, r.get("status"), r.get("message", "")))
            continue
        if not str(st).startswith("baseline") and st not in unchecked and not (r.get("checked") and r.get("passed")):
            bad.append("%s: check failed (checked %s, max_abs_err %s, norm_rel_err %s, first_bad %s, unwritten %s)" %
                       (st, r.get("checked"), r.get("max_abs_err"), r.get("norm_rel_err"), r.get("first_bad"), r.get("unwritten")))
        if st in timing and r.get("timing", "") != timing[st]:
            bad.append("%s: timing field '%s', expected '%s'" % (st, r.get("timing"), timing[st]))
        if st in reps and r.get("reps") != reps[st]:
            bad.append("%s: %s repetitions, expected %d" % (st, r.get("reps"), reps[st]))
        for c in r.get("claims", []):
            judged = claims is not None and (not claims or st in claims)
            if judged and c.get("state") == "contradicted":
                bad.append("%s: claim '%s' contradicted (%s)" % (st, c.get("expect"), c.get("values")))
            elif c.get("state") != "holds":
                print("    note: %s: claim '%s' %s %s" % (st, c.get("expect"), c.get("state"), c.get("values", c.get("missing", ""))))
        if r.get("ms_median") is not None:
            print("    info: %s: %.4f ms, %.4g GB/s, %.4g GFLOP/s, %.3g%% of the peak, norm_rel_err %s, %s reps" %
                  (st, r["ms_median"], r.get("gbps") or 0, r.get("gflops") or 0,
                   r.get("pct_attainable_bw") or r.get("pct_compute_peak") or 0, r.get("norm_rel_err"), r.get("reps")))
    stages = [s for s in seen if not str(s).startswith("baseline")]
    if want and len(stages) != want:
        bad.append("%d stages, expected %d" % (len(stages), want))
    print("    stages: " + " ".join(str(s) for s in seen))
    for b in bad:
        print("    " + b)
    return 1 if bad or not seen else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
