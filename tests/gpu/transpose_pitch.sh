#!/bin/sh
# transpose's unaligned and pitched stages (issue #34 item 6) on a GPU: bench at 8191 columns, where
# the rows are unaligned, every stage ok and correct and the two stages' claims not contradicted (and
# at the default 8192, where their aligned-width claims apply); both stages correct at odd sizes
# (1 x 1, 7 x 7, a prime number of rows by 8191, and the reverse, with and without float4 loads), and
# the vec stage at sizes that take each of its float4 and one-float paths; the
# pitch cudaMallocPitch returned named in the run's inputs, a multiple of 512 bytes and at least a
# row; the exercise's starter (packed indexing on pitched rows) wrong and the stage's own kernel passing.
. tests/lib.sh
K=kernels/transpose

$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu transpose_pitch: no GPU"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1; then skip "gpu transpose_pitch: python3 is needed to read --json"; exit 0; fi

T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

# judge FILE [OPTIONS]: tests/gpu/judge.py (every result ok, every stage checked and passed; --claims:
# no claim contradicted; its header lists the other options)
judge() { python3 tests/gpu/judge.py "$@"; }

for cols in 8191 8192; do
	$B bench transpose --set cols=$cols --json >"$T/bench.json" 2>"$T/bench.err"
	if [ ! -s "$T/bench.json" ]; then fail "gpu transpose_pitch bench at cols=$cols: no JSON"; head -20 "$T/bench.err"; continue; fi
	if judge "$T/bench.json" --claims=unaligned,pitched --unchecked copy >"$T/judge.out"; then pass "gpu transpose_pitch bench at cols=$cols: every stage ok and correct, no pitch claim contradicted"
	else fail "gpu transpose_pitch bench at cols=$cols"; fi
	cat "$T/judge.out"
done

for set in "rows=1 cols=1" "rows=7 cols=7" "rows=1021 cols=8191" "rows=8191 cols=1021" "rows=1021 cols=8191 VEC=1" "rows=5 cols=8193 TILE=32 BLOCK_ROWS=8"; do
	args=""
	for s in $set; do args="$args --set $s"; done
	for st in unaligned pitched; do
		# shellcheck disable=SC2086
		$B run transpose/$st $args --json >"$T/run.json" 2>"$T/run.err"
		if [ -s "$T/run.json" ] && judge "$T/run.json" --unchecked copy >"$T/judge.out"; then
			pass "gpu transpose_pitch $st at $set: ok and correct"
		else
			fail "gpu transpose_pitch $st at $set"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10
		fi
	done
done

# The vec stage (float4 loads where cols % 4 == 0, float4 stores where rows % 4 == 0, one float
# otherwise) at sizes that take each of the four paths, tiles cut by both edges, and other tiles.
for set in "rows=1 cols=1" "rows=7 cols=7" "rows=1021 cols=8191" "rows=8191 cols=1021" "rows=8191 cols=8192" \
	"rows=8192 cols=8191" "rows=1000 cols=776" "rows=4099 cols=2053 VEC=1" "rows=1000 cols=776 TR=32 TC=128 NT=128"; do
	args=""
	for s in $set; do args="$args --set $s"; done
	# shellcheck disable=SC2086
	$B run transpose/vec $args --json >"$T/run.json" 2>"$T/run.err"
	if [ -s "$T/run.json" ] && judge "$T/run.json" --unchecked copy >"$T/judge.out"; then pass "gpu transpose_pitch vec at $set: ok and correct"
	else fail "gpu transpose_pitch vec at $set"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10; fi
done

# The pitch the driver chose, as the run's inputs line names it.
$B run transpose/pitched --set cols=8191 --set rows=64 --json >"$T/run.json" 2>"$T/run.err"
pitch=$(python3 -c '
import json, re, sys
r = json.load(open(sys.argv[1]))["results"][0]
m = re.search(r"in_p: cudaMallocPitch gave a pitch of (\d+) bytes for rows of 32764", r.get("inputs", ""))
print(m.group(1) if m else "")' "$T/run.json" 2>/dev/null)
if [ -n "$pitch" ] && [ "$pitch" -ge 32764 ] && [ $((pitch % 512)) -eq 0 ]; then pass "gpu transpose_pitch: cudaMallocPitch gave $pitch bytes for rows of 32764"
else fail "gpu transpose_pitch: no pitch (a multiple of 512, at least 32764) in the inputs: '$pitch'"; head -c 600 "$T/run.json"; fi

# The exercise: the starter indexes the pitched rows as packed ones (wrong wherever the pitch is not
# 4 x cols); the stage's own kernel passes.
cp $K/exercises/pitch.cu "$T/starter.cu"
out=$($B --work "$T/work" try transpose/pitched "$T/starter.cu" 2>&1); rc=$?
if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -Eqi 'wrong|unwritten'; then pass "gpu transpose_pitch try: the starter is wrong"
else fail "gpu transpose_pitch try: the starter exits $rc, expected 1 (wrong)"; printf '%s\n' "$out" | head -20 | sed 's/^/    /'; fi
cp $K/pitch.cu "$T/own.cu"
out=$($B --work "$T/work" try transpose/pitched "$T/own.cu" 2>&1); rc=$?
if [ $rc -eq 0 ]; then pass "gpu transpose_pitch try: the stage's own kernel passes"
else fail "gpu transpose_pitch try: the stage's own kernel exits $rc, expected 0"; printf '%s\n' "$out" | head -20 | sed 's/^/    /'; fi
