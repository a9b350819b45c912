#!/bin/sh
# scripts/torch-check (#48) without a GPU or PyTorch: it compiles, and its self-test passes (its
# parsing of the tool's --json from a fixture, the table and its DEFECT flag, a missing PyTorch call
# as a row saying why, each problem's sizes against the lesson's defaults), never importing torch.
. tests/lib.sh
if ! command -v python3 >/dev/null 2>&1; then skip "torch-check: no python3"; exit 0; fi
python3 -c 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")' scripts/torch-check 2>&1 \
	&& pass "torch-check: compiles" || fail "torch-check: does not compile"
out=$(python3 scripts/torch-check --self-test 2>&1); code=$?
printf '%s\n' "$out" | grep -E '^(PASS|FAIL) '
[ $code = 0 ] && pass "torch-check: --self-test exits 0" || fail "torch-check: --self-test exited $code"
expect "torch-check: an unknown lesson is refused" 2 "no problem for nosuch" python3 scripts/torch-check --lessons nosuch
