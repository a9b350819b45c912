#!/bin/sh
# GPU test of the worker's side of lesson format v2, on the tests/fixtures/worker_v2 lesson: host
# buffers (a pageable input the pipe stage moves to pinned memory, a pinned output), copy steps on two
# streams in a repeat block, constants filled from a buffer and from an expression, 1D and 2D textures.
# At the default size and at an odd one: the pipelined stage matches the serial one bit for bit; its
# copies carry direction and bytes; a copy and a kernel on different streams overlap in the measured
# steps; the run has kernel_ms and bound_ms, and the device its h2d and d2h copy bandwidths. The stages
# that name a missing constant, overfill one, or give a texture a pitch the device cannot use are
# refused with a message naming it. Without a GPU this prints one visible SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "worker v2 gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "worker v2: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "worker v2: python3 is needed to read the JSON results"; exit 0; fi
tmp=${WORKER_V2_OUT:-$(mktemp -d)}; mkdir -p "$tmp"
[ -z "${WORKER_V2_OUT:-}" ] && trap 'rm -rf "$tmp"' EXIT

$B --lessons tests/fixtures/worker_v2 bench worker_v2 --reps 5 --no-counters --timeout 60 --json >"$tmp/default.json" 2>"$tmp/default.err"
$B --lessons tests/fixtures/worker_v2 bench worker_v2 --set n=1000003 --set chunks=7 --set iters=5 --reps 3 --no-counters --timeout 60 \
	--json >"$tmp/odd.json" 2>"$tmp/odd.err"

python3 - "$tmp" <<'PY' || fail "worker v2: the results could not be read"
import json, os, sys
tmp = sys.argv[1]

def check(name, label, n):
    try:
        doc = json.load(open(os.path.join(tmp, name)))
        got = {r["stage"]: r for r in doc["results"]}
    except Exception as e:
        err = open(os.path.join(tmp, name.replace(".json", ".err"))).read()[-400:]
        print("FAIL worker v2 (%s): no JSON results (%s): %s" % (label, e, err))
        return
    dev = doc.get("device", {})
    if dev.get("h2d_gbps", 0) > 0 and dev.get("d2h_gbps", 0) > 0:
        print("PASS worker v2 (%s): copy bandwidths calibrated: h2d %.1f GB/s, d2h %.1f GB/s" % (label, dev["h2d_gbps"], dev["d2h_gbps"]))
    else:
        print("FAIL worker v2 (%s): the device has no h2d/d2h calibration: %s %s" % (label, dev.get("h2d_gbps"), dev.get("d2h_gbps")))
    for sid in ("serial", "pipe"):
        r = got.get(sid)
        if r is None:
            print("FAIL worker v2 (%s): no result for stage %s" % (label, sid)); continue
        if r["status"] == "ok" and r["checked"] and r["passed"]:
            print("PASS worker v2 (%s): %s is right (%.3f ms)" % (label, sid, r["ms_median"]))
        else:
            print("FAIL worker v2 (%s): %s: %s, checked %s, passed %s, %s bad from %s: %s" % (label, sid, r["status"], r["checked"],
                  r["passed"], r["bad_count"], r["first_bad"], r["message"]))
            continue
        if r["h2d_bytes"] == 4 * n and r["d2h_bytes"] == 4 * n and r["kernel_ms"] > 0 and r["bound_ms"] >= r["kernel_ms"]:
            print("PASS worker v2 (%s): %s moves 4n bytes each way; kernels %.3f ms, bound %.3f ms" % (label, sid, r["kernel_ms"], r["bound_ms"]))
        else:
            print("FAIL worker v2 (%s): %s: h2d_bytes %s d2h_bytes %s (want %d), kernel_ms %s, bound_ms %s" % (label, sid, r["h2d_bytes"],
                  r["d2h_bytes"], 4 * n, r["kernel_ms"], r["bound_ms"]))
        steps = r.get("steps", [])
        copies = [s for s in steps if s["kind"] == "copy"]
        dirs = sorted(set(s["dir"] for s in copies))
        if copies and dirs == ["d2h", "h2d"] and sum(s["bytes"] for s in copies) == 8 * n:
            print("PASS worker v2 (%s): %s's %d copies carry their direction and bytes" % (label, sid, len(copies)))
        else:
            print("FAIL worker v2 (%s): %s's copies: %s" % (label, sid, [(s["entry"], s["dir"], s["bytes"]) for s in copies]))
        if sid != "pipe":
            continue
        streams = sorted(set(s["stream"] for s in steps))
        kernels = [s for s in steps if s["kind"] == "launch"]
        hit = [(c, k) for c in copies for k in kernels
               if c["stream"] != k["stream"] and max(c["start_ms"], k["start_ms"]) < min(c["end_ms"], k["end_ms"])]
        if streams == [1, 2] and hit:
            c, k = hit[0]
            print("PASS worker v2 (%s): copy %s (stream %d, %.3f-%.3f ms) overlaps kernel (stream %d, %.3f-%.3f ms); %d such pairs"
                  % (label, c["entry"], c["stream"], c["start_ms"], c["end_ms"], k["stream"], k["start_ms"], k["end_ms"], len(hit)))
        else:
            print("FAIL worker v2 (%s): no copy and kernel on different streams overlap (streams %s): %s" % (label, streams,
                  [(s["kind"], s["stream"], round(s["start_ms"], 3), round(s["end_ms"], 3)) for s in steps][:12]))
    if label == "default size" and "serial" in got and "pipe" in got and got["pipe"]["status"] == "ok" == got["serial"]["status"]:
        a, b = got["serial"]["ms_median"], got["pipe"]["ms_median"]
        if b < a:
            print("PASS worker v2 (%s): the pipeline (%.3f ms) beats the serial stage (%.3f ms)" % (label, b, a))
        else:
            print("FAIL worker v2 (%s): the pipeline (%.3f ms) is not faster than the serial stage (%.3f ms)" % (label, b, a))
    if label != "default size":
        return
    # a constant the module lacks is found when the kernel is compiled (sigcheck), with its file:line:col
    want = {"no_const": "constant 'c_nope' is not in the compiled module",
            "big_const": "constant c_iters holds 4 bytes; the lesson fills 8",
            "bad_pitch": "texture tab: its pitch (252 bytes) is not a multiple"}
    for sid, text in want.items():
        r = got.get(sid)
        if r is None:
            print("FAIL worker v2: no result for stage %s" % sid)
        elif r["status"] != "ok" and text in r["message"]:
            print("PASS worker v2: %s refused: %s" % (sid, r["message"][:110]))
        else:
            print("FAIL worker v2: %s: %s: %s (wanted '%s')" % (sid, r["status"], r["message"], text))

check("default.json", "default size", 1 << 24)
check("odd.json", "odd size", 1000003)
PY
