#!/bin/sh
# run LESSON/STAGE --hotspots without a GPU: the fake worker (tests/fake_worker.c) answers the
# hotspot pass with samples at the offsets of transpose/tile's own SASS (nvdisasm, as show --sass
# prints it), and the report must lay them over the right source lines and instructions, in text and
# JSON; the worker's note when it has no samples; the usage errors. With the real worker and no GPU:
# the one line that says why, and a visible SKIP for the sampling itself (tests/gpu/hotspots.sh).
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cuda=${CUDA_HOME:-/usr/local/cuda}

expect "hotspots: bench refuses --hotspots" 2 "--hotspots is for run LESSON/STAGE" $B bench transpose --hotspots
expect "hotspots: show refuses --hotspots" 2 "--hotspots is for run LESSON/STAGE" $B show transpose/tile --hotspots
expect "hotspots: the baseline has no code of ours" 2 "baseline is a library call" $B run transpose/baseline --hotspots
expect "hotspots: --help lists --hotspots" 0 "--hotspots +run: sample the program counter" $B --help

# The real worker: without a GPU the pass cannot happen, and the report says so in one line.
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then
	expect "hotspots: no GPU: said in one line under the table" 3 "^Hotspots of transpose/tile: the sampling run did not happen \(no_gpu: " $B run transpose/tile --hotspots
	skip "hotspots: sampling on a GPU: $(printf '%s' "$why" | head -1) (tests/gpu/hotspots.sh checks it there)"
else
	skip "hotspots: a GPU is here: tests/gpu/hotspots.sh samples on it"
fi

if ! cc -std=c11 -D_GNU_SOURCE -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app -I$cuda/include tests/fake_worker.c src/core/result.c src/core/util.c -o "$tmp/fake" 2>"$tmp/cc.log"; then
	fail "hotspots: the fake worker did not build: $(head -3 "$tmp/cc.log")"; exit 0
fi
export CUDACLIMB_WORKER=$tmp/fake

# Without samples the worker's note is the report's one line.
expect "hotspots: a worker without samples: its note" 0 "^Hotspots of transpose/tile: the fake worker samples nothing" $B run transpose/tile --hotspots --reps 1
CC_FAKE_HOTSPOTS_NOTE="program-counter sampling needs permission: NVreg_RestrictProfilingToAdminUsers=0" \
	expect "hotspots: no permission: said in one line" 0 "^Hotspots of transpose/tile: program-counter sampling needs permission" $B run transpose/tile --hotspots --reps 1

# Samples at the offsets of this compile's instructions (the tags show --sass puts at their right).
if ! $B show transpose/tile --sass >"$tmp/sass" 2>"$tmp/sass.err"; then
	skip "hotspots: no SASS to place samples on ($(head -1 "$tmp/sass.err"))"; exit 0
fi
off() { awk -v tag="[$1]" '$NF == tag { print $1; exit }' "$tmp/sass"; }
ldg=$(off LDG) sts=$(off STS) bar=$(off BAR) lds=$(off LDS) stg=$(off STG)
if [ -z "$ldg" ] || [ -z "$sts" ] || [ -z "$bar" ] || [ -z "$lds" ] || [ -z "$stg" ]; then
	fail "hotspots: transpose/tile's SASS lacks an LDG, STS, BAR, LDS or STG: $(grep -c '\[' "$tmp/sass") tagged"; exit 0
fi
shared=$(grep -n '^[[:space:]]*out\[.*= tile\[tx\]\[ty\];' kernels/transpose/tile.cu | head -1 | cut -d: -f1)
global=$(grep -n '^[[:space:]]*tile\[ty\]\[tx\] = in\[' kernels/transpose/tile.cu | head -1 | cut -d: -f1)
if [ -z "$shared" ] || [ -z "$global" ]; then fail "hotspots: kernels/transpose/tile.cu no longer has its two copy lines"; exit 0; fi
printf 'total=1000,dropped=0,other=0;@transpose_tile;%s:50:selected=50;%s:150:long_scoreboard=140,selected=10;%s:100:barrier=100;%s:200:mio_throttle=150,short_scoreboard=50;%s:500:short_scoreboard=450,selected=50\n' \
	"$ldg" "$sts" "$bar" "$lds" "$stg" >"$tmp/samples"
export CC_FAKE_HOTSPOTS=$tmp/samples

$B run transpose/tile --hotspots --reps 1 >"$tmp/out" 2>&1; code=$?
[ $code = 0 ] && pass "hotspots: a run with samples exits 0" || fail "hotspots: a run with samples exited $code"
grep -Eq "^ 70\.0%  #######  +$shared \| .*= tile\[tx\]\[ty\];" "$tmp/out" && pass "hotspots: the shared-memory read line has 70% and its bar" \
	|| { fail "hotspots: the shared-memory read line (line $shared) has no 70%"; sed -n '/^Hotspots/,$p' "$tmp/out" | head -40 | sed 's/^/    /'; }
grep -A1 -E "^ 70\.0% .* $shared \| " "$tmp/out" | grep -q "\^ short scoreboard (shared memory / MIO result) 71%, MIO throttle" \
	&& pass "hotspots: ... and its stall reasons in words under it" || fail "hotspots: line $shared's stall reasons"
grep -Eq "^ 20\.0%  ##  +$global \| " "$tmp/out" && pass "hotspots: the global read line has 20%" || fail "hotspots: the global read line (line $global) has no 20%"
grep -A1 -E "^ 20\.0% .* $global \| " "$tmp/out" | grep -q "\^ long scoreboard (global/local memory) 70%" \
	&& pass "hotspots: ... waiting on global memory" || fail "hotspots: line $global's stall reasons"
grep -Eq "^ 50\.0%  transpose_tile\+0*$stg +$shared  STG" "$tmp/out" && pass "hotspots: the hottest instruction first, at its offset and line" \
	|| { fail "hotspots: the hottest instructions"; sed -n '/^Hottest/,$p' "$tmp/out" | head -8 | sed 's/^/    /'; }

$B run transpose/tile --hotspots --reps 1 --json >"$tmp/json" 2>"$tmp/json.err"
if ! command -v python3 >/dev/null; then skip "hotspots: python3 is needed to read the JSON"; exit 0; fi
python3 - "$tmp/json" "$shared" "$global" "$lds" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); shared, glob, lds = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4], 16)
h = d["results"][0].get("hotspots")
def check(name, ok, detail=""):
    print(("PASS" if ok else "FAIL") + " hotspots --json: " + name + ("" if ok else ": " + detail))
check("the result carries hotspots", isinstance(h, dict), str(h)[:200])
if isinstance(h, dict):
    lines = {l["line"]: l for l in h.get("lines", [])}
    top = max(lines.values(), key=lambda l: l["samples"]) if lines else None
    check("the hottest line is the shared-memory read", top is not None and top["line"] == shared, str(top)[:200])
    check("... with 700 of 1000 samples", top is not None and top["samples"] == 700 and h["samples"] == 1000, str(top)[:200])
    check("... its first stall reason in words", top is not None and top["stalls"][0]["reason"] == "short_scoreboard"
          and "shared memory" in top["stalls"][0]["words"], str(top)[:300])
    check("the global read line has 200", glob in lines and lines[glob]["samples"] == 200, str(lines.get(glob))[:200])
    ins = [i for i in h.get("instructions", []) if i["offset"] == lds]
    check("the LDS instruction at its offset and line", len(ins) == 1 and ins[0]["line"] == shared and ins[0]["text"].startswith("LDS"), str(ins)[:200])
PY
