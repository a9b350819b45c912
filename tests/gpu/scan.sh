#!/bin/sh
# The scan lesson (issue #34 item 4) on a GPU: `bench scan` at the default size (2^28) with every
# stage ok and exact against cub::DeviceScan::ExclusiveSum (its claims listed, not judged here:
# tests/gpu/claims.sh judges them); every stage exact at n = 1, 7, 4099 (one tile and a bit),
# 1000003 (a prime) and 2^20 + 1; the look-back stage with small tiles (BLOCK 32, ITEMS 4: 31251
# tiles at n = 1000003, look-backs over many windows of 32) and at the largest n, 2^29 - 3 (4 GiB of
# data, prefixes up to 3 x 2^29); the exercise's starter not passing through `try` and the stage's
# own kernel passing. The look-back stage with TMA 1 (Hopper on: each tile moved by TMA, the n % 32
# inputs past the last whole row by hand) at n = 1, 7, 31 (no whole row: placeholder maps), 32 and 33
# (one row, and one row and one more), 4099, 1000003, 2^20 + 1, 8192 * 5 (five whole tiles), 2^29 - 3,
# and with BLOCK 128 and 64 (smaller boxes); on a GPU before Hopper one SKIP line for them.
# Without a GPU: one SKIP line. SCAN_OUT=DIR keeps the JSON results there.
. tests/lib.sh
K=kernels/scan

$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu scan: no GPU"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1; then skip "gpu scan: python3 is needed to read --json"; exit 0; fi

T=${SCAN_OUT:-$(mktemp -d)}
[ -z "${SCAN_OUT:-}" ] && trap 'rm -rf "$T"' EXIT
mkdir -p "$T"

# judge FILE [STAGES]: every result of that --json has status ok and (stages) a passed check; with
# STAGES (a count), that many stage results besides the baseline. Claims are printed as notes.
judge() {
	python3 - "$1" "${2:-0}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = int(sys.argv[2])
bad, seen = [], []
for r in d.get("results", []):
    st = r.get("stage")
    seen.append(st)
    if r.get("status") != "ok":
        bad.append("%s: status %s %s" % (st, r.get("status"), r.get("message", "")))
        continue
    if st != "baseline" and not (r.get("checked") and r.get("passed")):
        bad.append("%s: check failed (max_abs_err %s, first_bad %s, unwritten %s)" %
                   (st, r.get("max_abs_err"), r.get("first_bad"), r.get("unwritten")))
    for c in r.get("claims", []):
        print("    note: %s: claim '%s' %s %s" % (st, c.get("expect"), c.get("state"), c.get("values", c.get("missing", ""))))
    if r.get("gbps"):
        print("    info: %s: %.4f ms, %.0f GB/s, %.1f%% of attainable" % (st, r.get("ms_median", 0), r["gbps"], r.get("pct_attainable_bw", 0)))
stages = [s for s in seen if s != "baseline"]
if want and len(stages) != want:
    bad.append("%d stages, expected %d" % (len(stages), want))
print("    stages: " + " ".join(str(s) for s in seen))
for b in bad:
    print("    " + b)
sys.exit(1 if bad or not seen else 0)
PY
}

$B bench scan --timeout 120 --json >"$T/bench.json" 2>"$T/bench.err"
if [ -s "$T/bench.json" ] && judge "$T/bench.json" 5 >"$T/judge.out"; then
	pass "gpu scan bench: every stage ok and exact against CUB at n = 2^28"; sed -n '/info:/p' "$T/judge.out"
else
	fail "gpu scan bench"; cat "$T/judge.out" "$T/bench.err" 2>/dev/null | head -30 | sed 's/^/    /'
fi

for n in 1 7 4099 1000003 "(1<<20)+1"; do
	for st in hillis blelloch shuffle reduce_scan lookback; do
		$B run scan/$st --set "n=$n" --reps 3 --no-counters --json >"$T/run.json" 2>"$T/run.err"
		if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then
			pass "gpu scan $st at n = $n: exact"
		else
			fail "gpu scan $st at n = $n"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10 | sed 's/^/    /'
		fi
	done
done

# TMA=0 (the threads' own loads and stores, the default before Hopper) on every GPU
for set in "n=1000003 BLOCK=32 ITEMS=4 TMA=0" "n=(1<<29)-3 TMA=0" "n=7 TMA=0" "n=4099 TMA=0" "n=(1<<20)+1 TMA=0"; do
	args=""
	for s in $set; do args="$args --set $s"; done
	# shellcheck disable=SC2086
	$B run scan/lookback $args --reps 3 --no-counters --timeout 120 --json >"$T/run.json" 2>"$T/run.err"
	if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then
		pass "gpu scan lookback at $set: exact"
	else
		fail "gpu scan lookback at $set"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10 | sed 's/^/    /'
	fi
done

cc=$($B device --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cc"])')
if [ "${cc:-0}" -lt 90 ]; then
	skip "gpu scan lookback TMA=1: needs Hopper (compute capability $cc)"
else
	for set in "n=1" "n=7" "n=31" "n=32" "n=33" "n=4099" "n=1000003" "n=(1<<20)+1" "n=8192*5" "n=(1<<29)-3" \
		"n=1000003 BLOCK=128" "n=(1<<20)+1 BLOCK=64" "n=33 BLOCK=64"; do
		args="--set TMA=1"
		for s in $set; do args="$args --set $s"; done
		# shellcheck disable=SC2086
		$B run scan/lookback $args --reps 3 --no-counters --timeout 120 --json >"$T/run.json" 2>"$T/run.err"
		if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then
			pass "gpu scan lookback TMA=1 at $set: exact"
		else
			fail "gpu scan lookback TMA=1 at $set"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10 | sed 's/^/    /'
		fi
	done
fi

# the exercise: the starter as it is must not pass; the stage's own kernel must
try_exercise "gpu scan" scan/shuffle "$K" 'wrong'
