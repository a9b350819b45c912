#!/bin/sh
# GPU tests of the attention lesson: every stage (and cuDNN's SDPA, where the lesson has it and cuDNN is
# installed) right at the default size and at odd sizes (seq 1000 and 777, batch 1, heads 3: no
# multiple of any tile; dim 64 at seq 777); flash_wgmma where the persistent grid's last round is split
# along the keys (batch 4, heads 9, seq 1000: 288 tiles, 24 of them split into pieces of one or two key
# tiles, and the same at dim 64, also with three consumer warpgroups, BLOCK_M 192), where a merge that
# forgets to rescale its own part must fail; the tolerance tight enough to catch a fused kernel that does
# not rescale its output when the row maximum grows (a copy of the lesson tree with that bug must fail);
# no claim of the text contradicted at the default size. The best stage's speed against the baseline is
# printed (INFO), not tested. Without a GPU: one SKIP line. ATTENTION_OUT=DIR keeps the JSON results.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "attention gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "attention gpu tests: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "attention gpu tests: python3 is needed to read the JSON results"; exit 0; fi
tmp=${ATTENTION_OUT:-$(mktemp -d)}
[ -z "${ATTENTION_OUT:-}" ] && trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"

# The rescale bug: O is not multiplied by exp(m_old - m_new) when the running maximum grows.
mkdir -p "$tmp/bug" && cp -r lessons kernels "$tmp/bug/" &&
	sed -i 's/o\[i\] \*= corr\[(i >> 1) & 1\];/o[i] *= 1.f;/' "$tmp/bug/kernels/attention/wgmma.cu"
grep -q 'o\[i\] \*= 1.f;' "$tmp/bug/kernels/attention/wgmma.cu" || fail "attention: the rescale bug could not be planted in wgmma.cu"
# The merge bug: the split tile's first piece is not rescaled to the merged maximum.
mkdir -p "$tmp/mbug" && cp -r lessons kernels "$tmp/mbug/" &&
	sed -i 's/o\[i\] = o\[i\] \* ca\[(i >> 1) & 1\] +/o[i] = o[i] +/' "$tmp/mbug/kernels/attention/wgmma.cu"
grep -q 'o\[i\] = o\[i\] + __ldcg' "$tmp/mbug/kernels/attention/wgmma.cu" || fail "attention: the merge bug could not be planted in wgmma.cu"

run() { name=$1; shift; CUDACLIMB_BASELINE_LOG=1 $B bench "$@" --timeout 120 --json >"$tmp/$name.json" 2>"$tmp/$name.err"; }
run default attention --reps 5
run s1000 attention --set batch=1 --set heads=3 --set seq=1000 --reps 3 --no-counters
run s777 attention --set batch=1 --set heads=3 --set seq=777 --reps 3 --no-counters
run d64 attention --set batch=1 --set heads=3 --set seq=777 --set dim=64 --reps 3 --no-counters
run split attention --stage flash_wgmma --set batch=4 --set heads=9 --set seq=1000 --set PERSIST=1 --set SPLIT=1 --reps 3 --no-counters
run split64 attention --stage flash_wgmma --set batch=7 --set heads=5 --set seq=777 --set dim=64 --set PERSIST=1 --set SPLIT=1 --reps 3 --no-counters
run m192 attention --stage flash_wgmma --set batch=7 --set heads=5 --set seq=777 --set dim=64 --set BLOCK_M=192 --reps 3 --no-counters
$B --lessons "$tmp/mbug" run attention/flash_wgmma --set batch=4 --set heads=9 --set seq=1000 --set PERSIST=1 --set SPLIT=1 --reps 3 \
	--no-counters --timeout 120 --json >"$tmp/mbug.json" 2>"$tmp/mbug.err"
$B --lessons "$tmp/bug" run attention/flash_wgmma --set batch=1 --set heads=3 --set seq=1000 --reps 3 --no-counters \
	--timeout 120 --json >"$tmp/bug.json" 2>"$tmp/bug.err"

python3 - "$tmp" <<'PY' || fail "attention: the results could not be read"
import json, os, sys
tmp = sys.argv[1]

def load(name):
    try:
        return json.load(open(os.path.join(tmp, name + ".json")))["results"]
    except Exception as e:
        print("FAIL attention (%s): no JSON results (%s): %s" % (name, e, open(os.path.join(tmp, name + ".err")).read()[-300:]))
        return None

def err(name):
    return open(os.path.join(tmp, name + ".err")).read()

for name, label in (("default", "4 x 16 x 4096 x 128"), ("s1000", "1 x 3 x 1000 x 128"), ("s777", "1 x 3 x 777 x 128"),
                    ("d64", "1 x 3 x 777 x 64"), ("split", "4 x 9 x 1000 x 128, split"), ("split64", "7 x 5 x 777 x 64, split"), ("m192", "7 x 5 x 777 x 64, split, three consumers")):
    rs = load(name)
    if rs is None:
        continue
    if len(rs) < (1 if name.startswith("split") or name == "m192" else 2):
        print("FAIL attention (%s): %d results, expected every stage" % (label, len(rs)))
    for r in rs:
        s = r["stage"]
        what = "attention/%s (%s)" % (s, label)
        if s == "baseline" and r["status"] != "ok" and "cuDNN" in err(name) and "not found" in err(name):
            print("SKIP %s: cuDNN is not installed here" % what); continue
        if r["status"] == "unsupported":
            print("SKIP %s: %s" % (what, r["message"])); continue
        if r["status"] != "ok" or (s != "naive" and (not r["checked"] or not r["passed"])):
            print("FAIL %s: %s, checked %s, passed %s, %s bad from %s, max abs err %s: %s" % (what, r["status"], r["checked"],
                  r["passed"], r["bad_count"], r["first_bad"], r["max_abs_err"], r["message"]))
        else:
            print("PASS %s: right, max abs err %.3g, %.4f ms" % (what, r["max_abs_err"], r["ms_median"]))
        for c in (r.get("claims", []) if name == "default" else []):
            if c["state"] == "contradicted":
                print("FAIL %s: claim %s contradicted (%s)" % (what, c["expect"], c["values"]))
    if name == "default":
        by = {r["stage"]: r for r in rs}
        b = by.get("baseline")
        ok = [(r["ms_median"], r["stage"]) for r in rs if r["stage"] != "baseline" and r["status"] == "ok"]
        if ok:
            best = min(ok)
            line = "INFO attention: best stage %s %.4f ms (%.0f TFLOP/s)" % (best[1], best[0], by[best[1]]["gflops"] / 1000)
            if b and b["status"] == "ok":
                line += ", baseline %.4f ms (%.0f TFLOP/s): %.2fx its speed" % (b["ms_median"], b["gflops"] / 1000, b["ms_median"] / best[0])
            print(line)

def planted(name, caught, missed):
    try:
        bug = json.load(open(os.path.join(tmp, name + ".json")))["results"][0]
        if bug["status"] == "wrong" and bug["checked"] and not bug["passed"]:
            print("PASS attention: the tolerance catches %s (%s bad, max abs err %.3g)" % (caught, bug["bad_count"], bug["max_abs_err"]))
        else:
            print("FAIL attention: %s was not caught: %s, passed %s" % (missed, bug["status"], bug["passed"]))
    except Exception as e:
        print("FAIL attention: the planted bug's run (%s) gave no result (%s): %s" % (name, e, err(name)[-300:]))

planted("bug", "a fused kernel that does not rescale O", "a fused kernel that does not rescale O")
planted("mbug", "a split-tile merge that does not rescale its own part", "a split-tile merge without the rescale")
PY
