#!/bin/sh
# GPU tests of the read calibration and the reduction at its largest size: `cudaclimb device` has a
# read-only bandwidth, measured (not cached from an older form), above the copy's rate per direction
# (a copy of B bytes moves 2B, so copy/2 is what it reads per second) and below the theoretical peak;
# the reduction lesson compares with that read bandwidth (its runs say "read"); its top stage
# (lastblock) and the vector stage are exact, bit for bit against CUB, at n = 2^30 (4 GiB of input,
# partial sums up to 2^30) and at an odd size, n = 2^30 - 3, whose head and tail are not whole int4s.
# How close each comes to the read bandwidth is printed (INFO), not tested. Without a GPU: one SKIP
# line. REDUCTION_OUT=DIR keeps the JSON results there.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "reduction gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "reduction gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "reduction gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=${REDUCTION_OUT:-$(mktemp -d)}
[ -z "${REDUCTION_OUT:-}" ] && trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"

$B device --json >"$tmp/device.json" 2>"$tmp/device.err"
for s in lastblock vector; do
	$B run reduction/$s --set "n=1<<30" --reps 5 --no-counters --timeout 120 --json >"$tmp/$s-big.json" 2>"$tmp/$s-big.err"
	$B run reduction/$s --set "n=(1<<30)-3" --reps 3 --no-counters --timeout 120 --json >"$tmp/$s-odd.json" 2>"$tmp/$s-odd.err"
done

python3 - "$tmp" <<'PY' || fail "reduction: the results could not be read"
import json, os, sys
tmp = sys.argv[1]
d = json.load(open(os.path.join(tmp, "device.json")))
read, copy, theo = d.get("bw_read_gbps", 0), d.get("bw_attainable_gbps", 0), d.get("bw_theoretical_gbps", 0)
src = d.get("bw_read_src", "")
if read > 0 and "read-only int4 stream" in src:
    print("PASS reduction: the device has a read bandwidth, %.0f GB/s (%s)" % (read, src))
else:
    print("FAIL reduction: no read bandwidth in the device (%r, %r)" % (read, src))
if read > 0 and copy > 0 and read >= copy / 2 and (theo <= 0 or read <= theo * 1.01):
    print("PASS reduction: read %.0f GB/s lies between the copy's rate per direction (%.0f) and the theoretical %.0f" % (read, copy / 2, theo))
else:
    print("FAIL reduction: read %.0f GB/s is not between the copy's rate per direction (%.0f) and the theoretical %.0f" % (read, copy / 2, theo))
print("INFO reduction: read %.0f GB/s is %.3fx the copy's %.0f GB/s (bytes read plus written)" % (read, read / copy if copy else 0, copy))
for s in ["lastblock", "vector"]:
    for size in ["big", "odd"]:
        name = "reduction %s at n = %s" % (s, "2^30" if size == "big" else "2^30 - 3")
        path = os.path.join(tmp, "%s-%s.json" % (s, size))
        try:
            res = json.load(open(path))["results"]
        except Exception as e:
            print("FAIL %s: no JSON (%s): %s" % (name, e, open(path.replace(".json", ".err")).read().strip()[:300])); continue
        r = [x for x in res if x["stage"] == s]
        if not r:
            print("FAIL %s: no result for the stage" % name); continue
        r = r[0]
        if r["status"] == "ok" and r["checked"] and r["passed"] and r.get("attainable") == "read":
            print("PASS %s: exact against CUB, compared with the read bandwidth" % name)
        else:
            print("FAIL %s: status %s, checked %s, passed %s, attainable %r: %s" % (name, r["status"], r["checked"], r["passed"], r.get("attainable"), r["message"]))
        if r["status"] == "ok":
            print("INFO %s: %.4f ms, %.0f GB/s, %.1f%% of read attainable" % (name, r["ms_median"], r["gbps"], r["pct_attainable_bw"]))
PY
