#!/bin/sh
# scan/lookback's TMA setting, without a GPU: TMA=1 compiles for sm_90 to TMA loads and stores of
# the tile counted on an mbarrier, with the proxy fence before the store and the wait for its reads;
# the default is TMA 1 on sm_90 and TMA 0 before (TMA=0 has none of it); each constraint refuses with its own message (ITEMS, BLOCK,
# before Hopper); the plans with tensor maps are made at sizes around a row (7, 31: placeholder maps;
# 32, 33) and a prime, for every BLOCK TMA allows; the kernel keeps few registers and no spills (six
# blocks of 256 threads a Hopper SM), and where nvdisasm is installed its SASS has UTMALDG, UTMASTG
# and the 16 LDS.128 of the rows (each thread's row read twice, 8 chunks a time), with no local memory.
. tests/lib.sh
tmp=$(mktemp -d /tmp/cc-scantma.XXXXXX); trap 'rm -rf "$tmp"' EXIT
S=scan/lookback

timeout 300 $B show $S --set TMA=1 --ptx --arch sm_90 >"$tmp/t.ptx" 2>"$tmp/t.err"
if grep -q "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes" "$tmp/t.ptx" &&
	grep -q "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" "$tmp/t.ptx" &&
	grep -q "mbarrier.try_wait.parity" "$tmp/t.ptx" && grep -q "fence.proxy.async.shared::cta" "$tmp/t.ptx" &&
	grep -q "cp.async.bulk.wait_group.read 0" "$tmp/t.ptx"; then
	pass "scan TMA: TMA=1 loads and stores the tile with TMA, waits on an mbarrier, fences before the store and waits for its reads"
else
	fail "scan TMA: TMA=1's PTX lacks a TMA load or store, the mbarrier wait, the proxy fence or the wait: $(head -c 300 "$tmp/t.err")"
fi
timeout 300 $B show $S --set TMA=1 --set STREAM=0 --ptx --arch sm_90 >"$tmp/s0.ptx" 2>&1
if grep -q "L2::cache_hint" "$tmp/t.ptx" && grep -q "createpolicy.fractional.L2::evict_first" "$tmp/t.ptx" &&
	grep -q "cp.async.bulk.tensor" "$tmp/s0.ptx" && ! grep -q "L2::cache_hint" "$tmp/s0.ptx"; then
	pass "scan TMA: STREAM 3 puts an evict-first policy on the TMA copies, STREAM 0 none"
else
	fail "scan TMA: the TMA copies' cache hints do not follow STREAM"
fi
timeout 300 $B show $S --ptx --arch sm_90 >"$tmp/d.ptx" 2>&1
timeout 300 $B show $S --ptx --arch sm_80 >"$tmp/d80.ptx" 2>&1
timeout 300 $B show $S --set TMA=0 --ptx --arch sm_90 >"$tmp/z.ptx" 2>&1
if grep -q "cp.async.bulk.tensor" "$tmp/d.ptx" && grep -q "^\.visible \.entry scan_lookback" "$tmp/d80.ptx" &&
	! grep -Eq "cp\.async\.bulk|mbarrier|fence\.proxy" "$tmp/d80.ptx" && grep -q "^\.visible \.entry scan_lookback" "$tmp/z.ptx" &&
	! grep -Eq "cp\.async\.bulk|mbarrier|fence\.proxy" "$tmp/z.ptx"; then
	pass "scan TMA: the default is TMA 1 on sm_90 and TMA 0 on sm_80; TMA=0 has no TMA, mbarrier or proxy fence"
else
	fail "scan TMA: the default's PTX does not follow the GPU (TMA on sm_90, none on sm_80), or TMA=0 has TMA in it"
fi

expect "scan TMA: TMA=1 needs ITEMS 32" 2 "gives each thread one row of 32 ints.*ITEMS=32, or TMA=0 for fewer" \
	$B show $S --set TMA=1 --set ITEMS=16 --ptx --arch sm_90
expect "scan TMA: ITEMS 16 alone on Hopper (TMA 1 by default) is told to set TMA=0" 2 "the default from Hopper on.*TMA=0 for fewer" \
	$B show $S --set ITEMS=16 --ptx --arch sm_90
expect "scan TMA: ITEMS 16 with TMA=0 compiles on Hopper" 0 "scan_lookback" $B show $S --set ITEMS=16 --set TMA=0 --ptx --arch sm_90
expect "scan TMA: TMA=1 needs BLOCK 256 or less" 2 "a box has at most 256: BLOCK 256 or less, or TMA=0 for more" \
	$B show $S --set TMA=1 --set BLOCK=512 --ptx --arch sm_90
expect "scan TMA: TMA=1 refused before Hopper" 2 "TMA 1 needs the tensor memory accelerator.*TMA=0 here" \
	$B show $S --set TMA=1 --ptx --arch sm_80
expect "scan TMA: TMA=0 still compiles before Hopper" 0 "scan_lookback" $B show $S --ptx --arch sm_80

# The plans (tensor maps checked as the worker will encode them): every BLOCK from 32 to 256 allowed.
for n in 7 31 32 33 1000003 "(1<<29)-3"; do
	expect "scan TMA: TMA=1 plans at n = $n for BLOCK 32 to 256" 0 "2 refused by the constraints and the device's limits, 4 allowed" \
		$B tune $S --plan --arch sm_90 --set TMA=1 --set "n=$n" --over BLOCK
done

# Registers and spills from ptxas, for this lesson alone.
mkdir "$tmp/tree"; cp -r lessons "$tmp/tree/lessons"; ln -s "$PWD/kernels" "$tmp/tree/kernels"
find "$tmp/tree/lessons" -name '*.yaml' ! -name scan.yaml -delete
for b in 256 128 64; do
	row=$(timeout 300 $B --lessons "$tmp/tree/lessons" check --arch sm_90 --set TMA=1 --set BLOCK=$b 2>&1 | grep " lookback ")
	regs=$(printf '%s\n' "$row" | sed -n 's/.* regs *\([0-9]*\) .*/\1/p')
	if printf '%s\n' "$row" | grep -q " ok .* spill *0 " && [ -n "$regs" ] && [ "$regs" -le 40 ]; then
		pass "scan TMA: BLOCK $b: $regs registers, no spills"
	else
		fail "scan TMA: BLOCK $b: over 40 registers or spills: $row"
	fi
done

out=$(timeout 300 $B show $S --set TMA=1 --sass --arch sm_90 2>&1); rc=$?
if [ $rc != 0 ] && printf '%s' "$out" | grep -q "nvdisasm is not installed"; then
	skip "scan TMA: SASS: nvdisasm is not installed"
elif [ $rc != 0 ]; then
	fail "scan TMA: --sass exited $rc: $(printf '%s' "$out" | head -2)"
else
	lds=$(printf '%s\n' "$out" | grep -Ec '^ +[0-9a-f]+ +LDS\.128 ')
	if printf '%s\n' "$out" | grep -Eq '^ +[0-9a-f]+ +UTMALDG' && printf '%s\n' "$out" | grep -Eq '^ +[0-9a-f]+ +UTMASTG' &&
		[ "$lds" = 16 ] && ! printf '%s\n' "$out" | grep -Eq '\b(LDL|STL)\b'; then
		pass "scan TMA: SASS has UTMALDG, UTMASTG, 16 LDS.128 and no local memory"
	else
		fail "scan TMA: SASS: UTMALDG/UTMASTG missing, $lds LDS.128 (16 expected), or local memory"
	fi
fi
