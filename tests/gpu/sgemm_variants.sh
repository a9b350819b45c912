#!/bin/sh
# sgemm/warptile's FRAG and CLUSTER settings on the GPU: each checked against cublasSgemm at the
# lesson's size and at small ones (one k-tile, two, a few block rows), with BK and STAGES varied.
# CLUSTER 2 needs sm_90: it must be refused (not fail) on older GPUs.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "sgemm variants (GPU): $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "sgemm variants (GPU): cudaclimb device exited $code: $why"; exit 0; fi
cc=$($B device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cc"])')
tmp=$(mktemp -d /tmp/cc-sgvg.XXXXXX); trap 'rm -rf "$tmp"' EXIT
run() {   # run LABEL SETTINGS...
	label=$1; shift; a=""
	for x in "$@"; do a="$a --set $x"; done
	# shellcheck disable=SC2086
	timeout 300 $B bench sgemm --stage warptile --reps 3 --no-counters --json $a >"$tmp/r.json" 2>"$tmp/r.err"
	python3 - "$tmp/r.json" "$label" "$cc" "$*" <<'PY'
import json, sys
path, label, cc, sets = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
try:
    d = json.load(open(path))
except Exception as e:
    print("FAIL sgemm variants (GPU): %s: no JSON (%s)" % (label, e)); sys.exit()
r = [x for x in d["results"] if x["stage"] == "warptile"]
if not r:
    print("FAIL sgemm variants (GPU): %s: no warptile result" % label); sys.exit()
r = r[0]
if "CLUSTER=2" in sets and cc < 90:
    ok = r["status"] in ("refused", "unsupported")
    print("%s sgemm variants (GPU): %s refused before sm_90 (%s)" % ("PASS" if ok else "FAIL", label, r["status"])); sys.exit()
ok = r["status"] == "ok" and r["checked"] and r["passed"]
print("%s sgemm variants (GPU): %s (%s%s, %.3f ms)" % ("PASS" if ok else "FAIL", label, r["status"],
      ", checked" if r["checked"] else "", r.get("ms_median", -1)))
if not ok: print("    " + str(r.get("message", ""))[:200])
PY
}
for v in "FRAG=1" "CLUSTER=2" "FRAG=1 CLUSTER=2"; do
	# shellcheck disable=SC2086
	run "$v, 4096^3" $v
	# shellcheck disable=SC2086
	run "$v, 256x512x32 (one k-tile)" $v m=256 n=512 k=32
	# shellcheck disable=SC2086
	run "$v, 512x256x64 (two k-tiles)" $v m=512 n=256 k=64
	# shellcheck disable=SC2086
	run "$v BK=8 STAGES=3, 1024x768x520" $v BK=8 STAGES=3 m=1024 n=768 k=520
	# shellcheck disable=SC2086
	run "$v BK=16 STAGES=2, 768x1024x272" $v BK=16 STAGES=2 m=768 n=1024 k=272
done
