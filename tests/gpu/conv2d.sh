#!/bin/sh
# The conv2d lesson on a GPU: bench at the defaults (every stage ok and checked against direct, no
# claim contradicted, the cuDNN baseline run and checked), every stage correct at odd sizes (1 x 1
# images, a single channel, odd h and w whose last Winograd tile is partial, a prime near 10^6 pixels,
# channels past one block of wgemm's 64 and past its rounds of CB),
# and the winograd exercise: its starter wrong, the stage's own kernel passing through `try`.
# Without a GPU: one SKIP line. CONV2D_OUT=DIR keeps the JSON results there.
. tests/lib.sh
$B device >/dev/null 2>&1
if [ $? -eq 3 ]; then skip "gpu conv2d: no GPU"; exit 0; fi
if ! command -v python3 >/dev/null 2>&1; then skip "gpu conv2d: python3 is needed to read --json"; exit 0; fi
T=${CONV2D_OUT:-$(mktemp -d)}
[ -z "${CONV2D_OUT:-}" ] && trap 'rm -rf "$T"' EXIT
mkdir -p "$T"

# judge FILE [OPTIONS]: tests/gpu/judge.py (every result ok, every stage checked and passed; --claims:
# no claim contradicted; its header lists the other options)
judge() { python3 tests/gpu/judge.py "$@"; }

CUDACLIMB_BASELINE_LOG=1 $B bench conv2d --json >"$T/bench.json" 2>"$T/bench.err"
if [ ! -s "$T/bench.json" ]; then fail "gpu conv2d bench: no JSON"; head -20 "$T/bench.err"; else
	n=$(python3 -c 'import json,sys; print(len([r for r in json.load(open(sys.argv[1]))["results"] if r.get("stage") != "baseline"]))' "$T/bench.json")
	[ "$n" = 4 ] || fail "gpu conv2d bench: $n stages, expected 4"
	if judge "$T/bench.json" --claims; then pass "gpu conv2d bench: every stage ok and correct, no claim contradicted"
	else fail "gpu conv2d bench: a stage failed or a claim was contradicted"; fi
	grep "cuDNN 3x3 convolution" "$T/bench.err" | sed 's/^/    INFO /'
fi

for set in "n=1 c=1 k=1 h=1 w=1" "n=1 c=7 k=7 h=7 w=7" "n=2 c=13 k=17 h=15 w=1" "n=1 c=3 k=5 h=997 w=1009" "n=3 c=65 k=33 h=57 w=55" "n=3 c=70 k=130 h=57 w=31"; do
	args=""
	for s in $set; do args="$args --set $s"; done
	for st in direct smem winograd wgemm; do
		# shellcheck disable=SC2086
		$B run conv2d/$st $args --reps 3 --no-counters --json >"$T/run.json" 2>"$T/run.err"
		if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then
			pass "gpu conv2d $st at $set: ok and correct"
		else
			fail "gpu conv2d $st at $set"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10
		fi
	done
done

# wgemm's other settings at an odd size: 4 and 16 input channels a round (16 with 8 warps: two
# channels a thread), and 16 warps of one position each
for cfg in "CB=4" "CB=16" "NW=16 CB=16" "NW=16 CB=4"; do
	a=""; for s in $cfg; do a="$a --set $s"; done
	# shellcheck disable=SC2086
	$B run conv2d/wgemm --set n=3 --set c=70 --set k=130 --set h=57 --set w=31 $a --reps 3 --no-counters --json >"$T/run.json" 2>"$T/run.err"
	if [ -s "$T/run.json" ] && judge "$T/run.json" >"$T/judge.out"; then pass "gpu conv2d wgemm $cfg at 3 x 70 x 130 x 57 x 31: ok and correct"
	else fail "gpu conv2d wgemm $cfg at 3 x 70 x 130 x 57 x 31"; cat "$T/judge.out" "$T/run.err" 2>/dev/null | head -10; fi
done

# the exercise: the starter (the output transform unwritten) is wrong; the stage's own kernel passes
try_exercise "gpu conv2d" conv2d/winograd kernels/conv2d 'wrong'
