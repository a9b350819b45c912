#!/bin/sh
# The dp lesson without a GPU: check plans and compiles every stage and the exercise's starter for
# sm_80 and sm_90; show reads with four stages; the 16-bit stage refuses scores that do not fit 16
# bits; the starter compiles for try; and the PTX shows the DPX intrinsics where they are meant to be:
# the fused max-with-zero (max.s32.relu) and the 16x2 forms on sm_90 in the dpx and dpx16 stages, not
# in the plain diag stage, and spelled out as plain maxima on sm_80 (the header's emulation).
# On a GPU, tests/gpu/dp.sh runs them.
. tests/lib.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

out=$($B check --arch sm_80,sm_90 2>&1); rc=$?
if [ $rc -ne 0 ]; then fail "dp check: exit $rc"; printf '%s\n' "$out" | grep -E ' dp |error' | head -20 | sed 's/^/    /'
else
	miss=""
	for a in sm_80 sm_90; do
		for st in row diag diag/starter dpx dpx16; do
			printf '%s\n' "$out" | grep -Eq "^$a +dp +$st +ok " || miss="$miss $a:$st"
		done
	done
	if [ -z "$miss" ]; then pass "dp check: every stage and the starter ok on sm_80 and sm_90"
	else fail "dp check: not ok:$miss"; printf '%s\n' "$out" | grep ' dp ' | sed 's/^/    /'; fi
fi

out=$($B show dp 2>&1); rc=$?
if [ $rc -ne 0 ]; then fail "dp show: exit $rc"
elif printf '%s\n' "$out" | grep -Eq '\{(ms|gflops|achieved_occupancy|stall_[a-z_]+|time_vs_[a-z]+|speedup_vs_[a-z]+)\}'; then
	fail "dp show: a placeholder was left in braces"
elif [ "$(printf '%s\n' "$out" | grep -Ec '^[1-4]\. (row|diag|dpx|dpx16) - ')" != 4 ]; then
	fail "dp show: not the four stages"; printf '%s\n' "$out" | head -20 | sed 's/^/    /'
else pass "dp show: four stages, placeholders filled"; fi

expect "dp dpx16 refuses scores past 16 bits" 2 "16-bit half" $B run dp/dpx16 --set match=64 --set m=1024 --set n=1024
# without a GPU a run that plans says so in its row (exit 3); with one, tests/gpu/dp.sh runs these
if $B device >/dev/null 2>&1 || [ $? -ne 3 ]; then
	skip "dp dpx16 at the largest scores, try starter: a GPU is present (tests/gpu/dp.sh judges them)"
else
	expect "dp dpx16 plans the largest scores that fit (31 x 1024)" 3 "^dpx16 .* no_gpu" \
		$B run dp/dpx16 --set match=31 --set m=1024 --set n=1024 --set pairs=3
	expect "dp try starter compiles" 3 "COMPILED: compiles" $B --work "$T/work" try dp/diag
fi

# ptx STAGE ARCH: the stage's PTX for ARCH
ptx() { $B show "dp/$1" --ptx --arch "$2" 2>&1; }
n=$(ptx dpx sm_90 | grep -c 'max\.s32\.relu')
[ "$n" -gt 0 ] && pass "dp dpx on sm_90: the DPX intrinsics' max.s32.relu in the PTX ($n)" || fail "dp dpx on sm_90: no max.s32.relu in the PTX"
n=$(ptx diag sm_90 | grep -c 'max\.s32\.relu')
[ "$n" = 0 ] && pass "dp diag on sm_90: plain maxima, no max.s32.relu" || fail "dp diag on sm_90: $n max.s32.relu in the plain stage"
n=$(ptx dpx sm_80 | grep -c 'relu')
m=$(ptx dpx sm_80 | grep -c 'max\.s32')
[ "$n" = 0 ] && [ "$m" -gt 0 ] && pass "dp dpx on sm_80: the intrinsics emulated as plain maxima ($m max.s32)" || fail "dp dpx on sm_80: $n relu, $m max.s32"
n=$(ptx dpx16 sm_90 | grep -c 'max\.s16x2')
[ "$n" -gt 0 ] && pass "dp dpx16 on sm_90: 16x2 maxima in the PTX ($n)" || fail "dp dpx16 on sm_90: no max.s16x2 in the PTX"
