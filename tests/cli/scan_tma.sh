#!/bin/sh
# scan/lookback's TMA setting, without a GPU: TMA=1 compiles for sm_90 to TMA loads and stores of
# the tile counted on an mbarrier, with the proxy fence before the store and the wait for its reads;
# the default is TMA 1 on sm_90 and TMA 0 before (TMA=0 has none of it); each constraint refuses with its own message (ITEMS, BLOCK,
# before Hopper); the plans with tensor maps are made at sizes around a row (7, 31: placeholder maps;
# 32, 33) and a prime, for every BLOCK TMA allows; the kernel keeps few registers and no spills (six
# blocks of 256 threads a Hopper SM), and where nvdisasm is installed its SASS has UTMALDG, UTMASTG
# and the 16 LDS.128 of the rows (each thread's row read twice, 8 chunks a time), with no local memory.
# PERSIST 1 (the persistent grid with a ring of DEPTH tiles): refused with TMA 0, before Hopper, with
# DEPTH or PBLOCKS set without it, and where PBLOCKS rings do not fit in an SM; its PTX has the ring's
# loads, stores, parity waits, the wait for the store's reads, the ticket (none with TICKET 0) and
# __launch_bounds__(BLOCK, PBLOCKS); its plans have PBLOCKS x 132 blocks (the sm_90 table's SMs, fewer
# when there are fewer tiles) and the ring's dynamic shared memory; for each BLOCK, DEPTH and PBLOCKS
# tried: no spills, few registers, PBLOCKS blocks an SM by registers and shared memory; its SASS has
# the TMA copies and the 16 LDS.128 and no local memory.
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

# ---- PERSIST 1 ----
expect "scan TMA: PERSIST=1 refused with TMA=0" 2 "PERSIST 1 loops over tiles that TMA loads ahead.*needs TMA=1" \
	$B show $S --set PERSIST=1 --set TMA=0 --ptx --arch sm_90
expect "scan TMA: PERSIST=1 refused before Hopper" 2 "PERSIST 1 loops over tiles.*needs TMA=1" \
	$B show $S --set PERSIST=1 --ptx --arch sm_80
expect "scan TMA: DEPTH without PERSIST=1 refused" 2 "DEPTH and PBLOCKS shape the persistent loop: set PERSIST=1" \
	$B show $S --set DEPTH=3 --ptx --arch sm_90
expect "scan TMA: PERSIST=1 with three rings of 3 x 256 rows an SM refused" 2 "over an SM's shared memory: fewer PBLOCKS, DEPTH or BLOCK" \
	$B show $S --set PERSIST=1 --set DEPTH=3 --set PBLOCKS=3 --ptx --arch sm_90

timeout 300 $B show $S --set PERSIST=1 --ptx --arch sm_90 >"$tmp/p.ptx" 2>"$tmp/p.err"
timeout 300 $B show $S --set PERSIST=1 --set PBLOCKS=3 --set TICKET=0 --ptx --arch sm_90 >"$tmp/p3.ptx" 2>&1
if grep -q "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes" "$tmp/p.ptx" &&
	grep -q "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" "$tmp/p.ptx" &&
	grep -q "mbarrier.try_wait.parity" "$tmp/p.ptx" && grep -q "fence.proxy.async.shared::cta" "$tmp/p.ptx" &&
	grep -q "cp.async.bulk.wait_group.read 0" "$tmp/p.ptx" && grep -q "atom.global.add.u64" "$tmp/p.ptx" &&
	grep -q "^\.minnctapersm 2$" "$tmp/p.ptx" && grep -q "^\.maxntid 256, 1, 1$" "$tmp/p.ptx" &&
	grep -q "^\.minnctapersm 3$" "$tmp/p3.ptx" && ! grep -q "atom\." "$tmp/p3.ptx"; then
	pass "scan TMA: PERSIST=1's PTX: TMA loads and stores, parity waits, the proxy fence, the wait for the store's reads, tickets (none with TICKET=0), __launch_bounds__(BLOCK, PBLOCKS)"
else
	fail "scan TMA: PERSIST=1's PTX lacks a TMA copy, a wait, the fence, the ticket or the launch bounds: $(head -c 300 "$tmp/p.err")"
fi

# plan_line SETS...: the launch line of `show` for PERSIST=1 on sm_90 (132 SMs in the table)
plan_line() {
	args=""
	for s in "$@"; do args="$args --set $s"; done
	# shellcheck disable=SC2086
	timeout 300 $B show $S --set PERSIST=1 $args --arch sm_90 2>&1 | grep "launch scan_lookback"
}
for c in "264 66560|n=1<<28" "396 66560|n=1<<28 PBLOCKS=3" "264 99328|n=1<<28 DEPTH=3" "132 50176|n=1<<28 BLOCK=128 DEPTH=3 PBLOCKS=1" \
	"5 66560|n=8192*5" "1 66560|n=7" "1 66560|n=33" "123 66560|n=1000003" "396 17408|n=1000003 BLOCK=64 PBLOCKS=3"; do
	want=${c%%|*} sets=${c#*|}
	grid=${want% *} shared=${want#* }
	# shellcheck disable=SC2086
	line=$(plan_line $sets)
	if printf '%s\n' "$line" | grep -q "grid $grid x 1 x 1, .* $shared bytes of dynamic shared memory"; then
		pass "scan TMA: PERSIST=1 at $sets: grid $grid, $shared bytes of dynamic shared memory"
	else
		fail "scan TMA: PERSIST=1 at $sets: expected grid $grid and $shared bytes: $line"
	fi
done
for n in 7 31 32 33 1000003 "(1<<29)-3"; do
	expect "scan TMA: PERSIST=1 plans at n = $n for DEPTH 2, 3 and PBLOCKS 1 to 3 (BLOCK 256)" 0 "1 refused by the constraints and the device's limits, 5 allowed" \
		$B tune $S --plan --arch sm_90 --set TMA=1 --set PERSIST=1 --set "n=$n" --over DEPTH,PBLOCKS
done

# Registers, spills, shared memory and blocks an SM from `check` (ptxas and the occupancy calculator).
for c in "256 2 2" "256 2 3" "256 3 2" "256 3 1" "128 3 3" "128 2 1" "64 2 1" "64 3 3" "32 2 2"; do
	# shellcheck disable=SC2086
	set -- $c
	b=$1 d=$2 p=$3
	row=$(timeout 300 $B --lessons "$tmp/tree/lessons" check --arch sm_90 --set TMA=1 --set PERSIST=1 --set BLOCK=$b --set DEPTH=$d --set PBLOCKS=$p 2>&1 | grep " lookback ")
	regs=$(printf '%s\n' "$row" | sed -n 's/.* regs *\([0-9]*\) .*/\1/p')
	smem=$(printf '%s\n' "$row" | sed -n 's/.* smem *\([0-9]*\) .*/\1/p')
	pct=$(printf '%s\n' "$row" | sed -n 's/.* occupancy *\([0-9]*\)%.*/\1/p')
	ring=$((d * b * 128 + 1024))
	if [ -n "$regs" ] && [ -n "$smem" ] && [ -n "$pct" ] && printf '%s\n' "$row" | grep -q " ok .* spill *0 " &&
		[ "$regs" -le 56 ] && [ $(( (regs + 7) / 8 * 8 * b * p )) -le 65536 ] &&
		[ "$smem" -ge "$ring" ] && [ "$smem" -le $((ring + 512)) ] &&
		[ $(( (pct * 64 + 50) / 100 / (b / 32) )) -ge "$p" ]; then
		pass "scan TMA: PERSIST=1 BLOCK $b DEPTH $d PBLOCKS $p: $regs registers, no spills, $smem bytes of shared memory, $pct% occupancy"
	else
		fail "scan TMA: PERSIST=1 BLOCK $b DEPTH $d PBLOCKS $p: spills, over 56 registers, the ring's shared memory or fewer than $p blocks an SM: $row"
	fi
done

out=$(timeout 300 $B show $S --set PERSIST=1 --sass --arch sm_90 2>&1); rc=$?
if [ $rc != 0 ] && printf '%s' "$out" | grep -q "nvdisasm is not installed"; then
	skip "scan TMA: PERSIST=1 SASS: nvdisasm is not installed"
elif [ $rc != 0 ]; then
	fail "scan TMA: PERSIST=1 --sass exited $rc: $(printf '%s' "$out" | head -2)"
else
	lds=$(printf '%s\n' "$out" | grep -Ec '^ +[0-9a-f]+ +LDS\.128 ')
	if printf '%s\n' "$out" | grep -Eq '^ +[0-9a-f]+ +UTMALDG' && printf '%s\n' "$out" | grep -Eq '^ +[0-9a-f]+ +UTMASTG' &&
		[ "$lds" = 16 ] && ! printf '%s\n' "$out" | grep -Eq '\b(LDL|STL)\b'; then
		pass "scan TMA: PERSIST=1 SASS has UTMALDG, UTMASTG, 16 LDS.128 and no local memory"
	else
		fail "scan TMA: PERSIST=1 SASS: UTMALDG/UTMASTG missing, $lds LDS.128 (16 expected), or local memory"
	fi
fi
