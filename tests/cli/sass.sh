#!/bin/sh
# show LESSON/STAGE --sass and --ptx, without a GPU: the vectorised SAXPY loads 128 bits at a time
# and the coalesced one does not; the Hopper stage issues wgmma (HGMMA); the register-tiled SGEMM is
# mostly FFMA; instructions sit under their source lines; the counts stand beside the previous
# stage's; the PTX is NVRTC's. Skips with a visible line where no nvdisasm can be had.
. tests/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
if ! $B show bandwidth/vectorized --sass >"$tmp/vec" 2>"$tmp/vec.err"; then
	if grep -q "nvdisasm is not installed" "$tmp/vec.err"; then
		skip "sass: no nvdisasm here (not in the CUDA Toolkit, and make test could not fetch NVIDIA's package): $(head -1 "$tmp/vec.err")"
		expect "sass: without nvdisasm, a clear message" 1 "pip install nvidia-cuda-nvdisasm" $B show bandwidth/vectorized --sass
		exit 0
	fi
	fail "sass: show --sass failed: $(head -3 "$tmp/vec.err")"; exit 0
fi
grep -q "\[LDG.128\]" "$tmp/vec" && pass "sass: bandwidth/vectorized has 128-bit global loads" || fail "sass: no LDG.128 in bandwidth/vectorized"
grep -q "2 of them 128-bit" "$tmp/vec" && pass "sass: the counts say how many loads are 128-bit" || fail "sass: no 128-bit count"
grep -q "saxpy_vectorized: [0-9]* instructions (gridstride: [0-9]*)" "$tmp/vec" && pass "sass: counts beside the previous stage's" || fail "sass: no previous stage"
grep -Eq "^ +[0-9]+ \| .*__ldg\(&x4\[i\]\)" "$tmp/vec" && pass "sass: instructions under their source lines" || fail "sass: no source lines"
$B show bandwidth/coalesced --sass >"$tmp/coal" 2>&1
grep -q "LDG" "$tmp/coal" && ! grep -q "LDG.128" "$tmp/coal" && pass "sass: bandwidth/coalesced loads 32 bits, not 128" || fail "sass: coalesced"
$B show tensorcore/wgmma_ws --sass >"$tmp/ws" 2>&1
grep -q "\[HGMMA\]" "$tmp/ws" && grep -q "wgmma (HGMMA) " "$tmp/ws" && pass "sass: tensorcore/wgmma_ws issues wgmma (HGMMA)" || fail "sass: no HGMMA in wgmma_ws"
$B show tensorcore/mma_pipeline --sass >"$tmp/mma" 2>&1
grep -q "\[HMMA\]" "$tmp/mma" && ! grep -q "HGMMA" "$tmp/mma" && pass "sass: tensorcore/mma_pipeline issues HMMA, not HGMMA" || fail "sass: mma_pipeline"
$B show sgemm/warptile --sass >"$tmp/gemm" 2>&1
python3 - "$tmp/gemm" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
c = {k: int(v) for k, v in re.findall(r"^  (FFMA|shared load|global load) +(\d+)", t, re.M)}
ok = c.get("FFMA", 0) > 8 * (c.get("shared load", 0) + c.get("global load", 0))
print("%s sass: sgemm/warptile is mostly FFMA (%s)" % ("PASS" if ok else "FAIL", c))
PY
expect "sass: --ptx shows NVRTC's PTX" 0 "\.entry saxpy_vectorized" $B show bandwidth/vectorized --ptx
expect "sass: --set reaches the compile" 0 "VEC=4" $B show bandwidth/vectorized --sass --set VEC=4
expect "sass: a lesson without a stage lists the stages" 2 "bandwidth/strided" $B show bandwidth --sass
expect "sass: the baseline has no code of ours" 2 "library call" $B show bandwidth/baseline --sass
t0=$(date +%s%N); $B show sgemm/warptile --sass >/dev/null 2>&1; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "sass: the SASS view of a cached stage opened in $ms ms (sgemm/warptile)"
expect "sass: under --replay the stage is still compiled for its code" 0 "\[LDG.128\]" $B --replay tests/tui/fixtures/replay-bandwidth.json show bandwidth/vectorized --sass
