#!/bin/sh
# GPU tests: every stage of every lesson correct at its default size and at an odd size; the
# theoretical occupancy equals the CUDA API's; the worker survives a faulting and a hanging kernel.
# Without a GPU this prints one visible SKIP line.
. tests/lib.sh
why=$($B device 2>&1); code=$?
if [ $code = 3 ]; then skip "gpu tests: $(printf '%s' "$why" | head -1)"; exit 0; fi
if [ $code != 0 ]; then fail "gpu: cudaclimb device exited $code: $why"; exit 0; fi
if ! command -v python3 >/dev/null; then fail "gpu: python3 is needed to read the JSON results"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# check_json FILE LABEL [REFUSALS]: one line per result: PASS when right and the theoretical occupancy
# equals cudaOccupancyMaxActiveBlocksPerMultiprocessor; a stage for another GPU (unsupported) is a
# visible SKIP with its reason. A refusal is a FAIL, except for the stages REFUSALS names (lesson/stage,
# space-separated) when their reason is a whole-tile constraint ("must be a multiple"): the odd sizes
# break those on purpose, so they are a SKIP with the reason. A file that cannot be read, or that holds
# no results, is a FAIL too.
check_json() {
	python3 - "$1" "$2" "${3:-}" <<'PY' || fail "${1##*/} ($2): the JSON results could not be read"
import json, sys
d = json.load(open(sys.argv[1])); label = sys.argv[2]; refusals = sys.argv[3].split()
if not d.get("results"):
    print("FAIL %s: no results" % label)
for r in d["results"]:
    name = "%s/%s %s" % (r["lesson"], r["stage"], label)
    st = r["status"]
    if not r["message"] and st in ("refused", "unsupported"):
        print("FAIL %s: %s without a reason" % (name, st)); continue
    expected = "%s/%s" % (r["lesson"], r["stage"]) in refusals and "must be a multiple" in r["message"]
    if st == "unsupported" or (st == "refused" and expected):
        print("SKIP %s: %s (%s)" % (name, st, r["message"])); continue
    if st == "refused":
        print("FAIL %s: refused unexpectedly: %s" % (name, r["message"])); continue
    if st != "ok" or (r["checked"] and not r["passed"]):
        print("FAIL %s: %s %s" % (name, st, r["message"])); continue
    if r["stage"] != "baseline" and r["occ_api_blocks"] >= 0 and r["occ_blocks"] != r["occ_api_blocks"]:
        print("FAIL %s: occupancy %d blocks/SM, the CUDA API says %d" % (name, r["occ_blocks"], r["occ_api_blocks"])); continue
    print("PASS %s: %s%s" % (name, "checked" if r["checked"] else "ran (not checked)",
          ", occupancy %d blocks/SM = API" % r["occ_blocks"] if r["occ_api_blocks"] >= 0 else ""))
PY
}

odd() {
	case $1 in
	bandwidth|reduction) echo "--set n=1000003" ;;
	transpose) echo "--set rows=1000 --set cols=777" ;;
	sgemm) echo "--set m=1000 --set n=777 --set k=333" ;;
	tensorcore) echo "--set m=1000 --set n=776 --set k=336" ;;
	warps) echo "--set n=30001 --set terms=1001 --set w=32" ;;
	launch) echo "--set n=9586981" ;;
	precision) echo "--set rows=999 --set cols=1008" ;;
	fusion) echo "--set n=3 --set c=5 --set k=7 --set h=37 --set w=29" ;;
	softmax) echo "--set rows=4681 --set cols=777" ;;
	stencil) echo "--set width=1001 --set height=777 --set R=3" ;;
	streams) echo "--set n=1000003" ;;
	dynamic) echo "--set seqs=1001 --set short_len=13 --set long_len=77777" ;;
	*) echo "" ;;
	esac
}

# The stages that refuse the odd size: their constraints ask for whole tiles (m, n, k multiples of the
# block tile), as the lessons say; every other stage must run at it.
odd_refusals() {
	case $1 in
	sgemm) echo "sgemm/vectorized sgemm/bankfree sgemm/cpasync sgemm/warptile" ;;
	tensorcore) echo "tensorcore/wmma_global tensorcore/wmma_smem tensorcore/mma_pipeline" ;;
	*) echo "" ;;
	esac
}

# RUN_LESSONS="a b" limits the per-lesson part to those lessons (to split this test over two GPU calls).
for l in ${RUN_LESSONS:-$($B list 2>/dev/null | awk '{print $1}')}; do
	$B bench $l --reps 3 --timeout 60 --json >"$tmp/$l.json" 2>"$tmp/$l.err"
	check_json "$tmp/$l.json" "default size"
	$B bench $l $(odd $l) --reps 3 --timeout 60 --json >"$tmp/$l-odd.json" 2>"$tmp/$l-odd.err"
	check_json "$tmp/$l-odd.json" "odd size ($(odd $l))" "$(odd_refusals $l)"
done

# Counters through the lessons: the coalesced stage moves its model's bytes (within 5%), the strided
# one at least twice them; the transpose's unpadded tile conflicts on shared-memory banks, the padded
# one hardly (under 1% of it).
# A split run (RUN_LESSONS) without both lessons says so and leaves this check to the half that has them.
if [ ! -e "$tmp/bandwidth.json" ] || [ ! -e "$tmp/transpose.json" ]; then
	echo "SKIP counters through the lessons: bandwidth and transpose are not both in RUN_LESSONS"
else
python3 - "$tmp/bandwidth.json" "$tmp/transpose.json" <<'PY' || fail "counters: the bandwidth and transpose results could not be read"
import json, sys
def stages(path): return {r["stage"]: r for r in json.load(open(path))["results"]}
b, t = stages(sys.argv[1]), stages(sys.argv[2])
def ratio(r): return (r["dram_bytes_read"] + r["dram_bytes_write"]) / r["bytes"] if r["dram_bytes_read"] >= 0 else None
def check(name, ok, detail): print("%s counters: %s (%s)" % ("PASS" if ok else "FAIL", name, detail))
c, s = ratio(b["coalesced"]), ratio(b["strided"])
if c is None: print("SKIP counters: not available: %s" % b["coalesced"]["counters_note"])
else:
    check("coalesced SAXPY moves its model's bytes", abs(c - 1) <= 0.05, "%.3fx the model" % c)
    check("strided SAXPY moves at least twice them", s >= 2, "%.2fx the model" % s)
    tc = t["tile"]["smem_conflicts_ld"] + t["tile"]["smem_conflicts_st"]
    pc = t["padded"]["smem_conflicts_ld"] + t["padded"]["smem_conflicts_st"]
    check("unpadded tile has bank conflicts, the padded tile hardly any", tc > 1e6 and pc < 0.01 * tc, "%.3g vs %.3g" % (tc, pc))
PY
fi
# Counters on kernels made for it (copy, strided copy, 32-way conflicts and their padded twin, divergence).
cuda=${CUDA_HOME:-/usr/local/cuda}
if $cuda/bin/nvcc -std=c++17 -arch=sm_$($B device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cc"])') \
	-I$cuda/extras/CUPTI/include -Isrc/core -Isrc/lesson -Isrc/engine -Isrc/runner -Isrc/worker -Isrc/app tests/gpu/counters_check.cu src/worker/counters.cpp src/worker/cupti_util.cpp -ldl -o "$tmp/counters_check" >"$tmp/cc.log" 2>&1; then
	"$tmp/counters_check" 2>&1 | sed -n 's/^\(PASS\|FAIL\) /\1 counters_check: /p'
else
	fail "counters_check did not build"; head -20 "$tmp/cc.log"
fi

# Failures end only the worker: one engine runs good, wrong, fault, hang, broken, then good again.
$B --lessons tests/fixtures/faulty bench fixture --timeout 3 --reps 3 --json >"$tmp/fx.json" 2>"$tmp/fx.err"
python3 - "$tmp/fx.json" <<'PY' || fail "worker isolation: the fixture's results could not be read"
import json, sys
want = {"good": "ok", "wrong": "wrong", "fault": "fault", "hang": "hang", "broken": "compile_error", "again": "ok"}
got = {r["stage"]: r for r in json.load(open(sys.argv[1]))["results"]}
for s, st in want.items():
    r = got.get(s)
    if r and r["status"] == st and (st == "ok" or r["message"]):
        print("PASS worker isolation: %s -> %s: %s" % (s, st, r["message"] or "right"))
    else:
        print("FAIL worker isolation: %s expected %s, got %s" % (s, st, r and (r["status"], r["message"])))
PY

# Shared boxes: while another process holds this GPU's turn, a run waits in line and says behind whom
# (the ticket owner's account name, never the ticket's text). Pinned to GPU 0: on a box of several GPUs
# a run without --gpu takes one with no line.
uuid=$($B --gpu 0 device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["uuid"])')
export CUDACLIMB_LOCK_DIR=$tmp
q=$tmp/cudaclimb-gpu-$uuid.q
mkdir -m 1777 "$q"
if command -v flock >/dev/null; then
	# a ticket as the queue takes it: t-UID-PID-RANDOM, RANDOM 16 hex digits (any other name is junk)
	t=$q/t-$(id -u)-4242-00000000a11ce000
	echo "alice 4242 4" >"$t"
	flock "$t" sh -c ": >'$q/s-t-$(id -u)-4242-00000000a11ce000'; sleep 4" &
	holder=$!
	i=0; while [ $i -lt 50 ] && [ ! -e "$q/s-t-$(id -u)-4242-00000000a11ce000" ]; do sleep 0.1; i=$((i + 1)); done
	out=$($B --gpu 0 run bandwidth/coalesced --reps 3 2>&1); code=$?
	wait $holder
	rm -f "$t" "$q/s-t-$(id -u)-4242-00000000a11ce000"
	if [ $code = 0 ] && printf '%s' "$out" | grep -q "waiting for the GPU: 2nd in line, behind $(id -un) (running for"; then pass "gpu queue: a second run waits in line and names the holder"
	else fail "gpu queue: exit $code, no waiting message"; printf '%s\n' "$out" | head -5; fi
else
	skip "gpu queue: flock(1) is not installed"
fi
