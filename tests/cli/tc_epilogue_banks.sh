#!/bin/sh
# scripts/tc-epilogue-banks.py, the model of tc.cuh's TMA-store epilogue addresses: with EPI_SWZ 0 and 1
# every element of a staging box is written once where TMA reads it; EPI_SWZ 0 stores with two-way bank
# conflicts, EPI_SWZ 1 with none. A copy with a wrong chunk index must fail, and one whose odd rows take
# another order (e ^ 1) must show the conflicts again. And the formulas it models are still tc.cuh's.
. tests/lib.sh
if ! command -v python3 >/dev/null 2>&1; then skip "tc epilogue banks: no python3"; exit 0; fi
M=scripts/tc-epilogue-banks.py
out=$(python3 $M 2>&1); code=$?
[ $code = 0 ] && printf '%s' "$out" | grep -q "EPI_SWZ 0: every element once, where the box reads it; 2-way" &&
	printf '%s' "$out" | grep -q "EPI_SWZ 1: every element once, where the box reads it; 1-way" &&
	pass "tc epilogue banks: each element once in both orders; 2-way conflicts with EPI_SWZ 0, none with 1" ||
	fail "tc epilogue banks: $out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sed 's|chunk, within = 2 \* eo + (lane % 4) // 2|chunk, within = 2 * eo + (lane % 4) % 2|' $M >"$tmp/wrong.py"
if cmp -s $M "$tmp/wrong.py"; then fail "tc epilogue banks: the wrong chunk could not be planted"
else python3 "$tmp/wrong.py" >"$tmp/out" 2>&1 && fail "tc epilogue banks: a wrong chunk index passed" ||
	{ grep -q "^FAIL .*the box has it at" "$tmp/out" && pass "tc epilogue banks: a wrong chunk index is caught" || fail "tc epilogue banks: $(head -3 "$tmp/out")"; }; fi
sed 's|eo = (e ^ 3) if (swz and odd) else e|eo = (e ^ 1) if (swz and odd) else e|' $M >"$tmp/order.py"
python3 "$tmp/order.py" 2>&1 | grep -q "EPI_SWZ 1: every element once, where the box reads it; 2-way" &&
	pass "tc epilogue banks: another order for the odd rows (e ^ 1) conflicts again" || fail "tc epilogue banks: the order e ^ 1 was not seen to conflict"
# the kernel still has the formulas the model transcribes
K=kernels/precision_gemm/tc.cuh
grep -q 'jb = 4 \* b + (e ^ 3), eo = odd ? e ^ 3 : e' $K && grep -q 'chunk = 2 \* eo + (lane % 4) / 2, within = 8 \* (lane % 2)' $K &&
	grep -q 'scale_b_at(sc, b / 2, 4 \* (b % 2) + eo, 0)' $K && grep -q 'return __shfl_sync(0xffffffffu, sc.b\[2 \* h + e\], 4 \* i + threadIdx.x % 4);' $K &&
	grep -q 'box + r \* 128 + ((chunk ^ (r % 8)) << 4) + within' $K && grep -q 'const bool odd = (lane >> 2) & 1' $K &&
	pass "tc epilogue banks: tc.cuh has the formulas the model checks" || fail "tc epilogue banks: tc.cuh's epilogue formulas changed: update scripts/tc-epilogue-banks.py"
