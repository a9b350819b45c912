#!/bin/sh
# sgemm/warptile's FRAG and CLUSTER settings (issue 35 item 5): every combination compiles for sm_90
# (PTX from NVRTC, no GPU needed); CLUSTER 2 declares a 1 x 2 x 1 cluster and shares B through
# distributed shared memory and cluster barriers; the defaults use none of it; each constraint
# refuses with its own message. The SASS has no local memory (spills) where nvdisasm is installed.
. tests/lib.sh
tmp=$(mktemp -d /tmp/cc-sgv.XXXXXX); trap 'rm -rf "$tmp"' EXIT
ptx() {   # ptx FILE SETTINGS...: show --ptx at sm_90 into FILE; exit status of show
	f=$1; shift; a=""
	for x in "$@"; do a="$a --set $x"; done
	# shellcheck disable=SC2086
	timeout 300 $B show sgemm/warptile $a --ptx --arch sm_90 >"$f" 2>"$f.err"
}
for s in "FRAG=1" "CLUSTER=2" "FRAG=1 CLUSTER=2" "FRAG=1 BK=8 STAGES=3" "CLUSTER=2 BK=16 STAGES=3" "FRAG=1 CLUSTER=2 BK=8"; do
	# shellcheck disable=SC2086
	if ptx "$tmp/p.ptx" $s && grep -q "^\.visible \.entry sgemm_warptile" "$tmp/p.ptx"; then
		pass "sgemm variants: $s compiles for sm_90"
	else
		fail "sgemm variants: $s: $(head -c 300 "$tmp/p.ptx.err")"
	fi
done
ptx "$tmp/c.ptx" CLUSTER=2
if grep -q "reqnctapercluster 1, 2, 1" "$tmp/c.ptx" && grep -q "mapa.shared::cluster" "$tmp/c.ptx" &&
	grep -q "st.shared::cluster" "$tmp/c.ptx" && grep -q "barrier.cluster.arrive.release" "$tmp/c.ptx" &&
	grep -q "barrier.cluster.wait.acquire" "$tmp/c.ptx" && ! grep -q "cp.async.cg" "$tmp/c.ptx"; then
	pass "sgemm variants: CLUSTER=2 is a 1x2x1 cluster writing B into the partner through mapa, with cluster barriers"
else
	fail "sgemm variants: CLUSTER=2's PTX lacks the cluster shape, mapa, st.shared::cluster or the cluster barriers"
fi
ptx "$tmp/d.ptx"
if grep -q "cp.async.cg" "$tmp/d.ptx" && ! grep -q "cluster" "$tmp/d.ptx"; then
	pass "sgemm variants: the defaults keep cp.async for B and no cluster"
else
	fail "sgemm variants: the default PTX changed (cluster instructions, or no cp.async)"
fi
expect "sgemm variants: CLUSTER=2 refused before sm_90" 2 "CLUSTER 2 needs thread-block clusters" \
	$B show sgemm/warptile --set CLUSTER=2 --ptx --arch sm_80
expect "sgemm variants: CLUSTER=2 needs an even number of block rows" 2 "m / BM must be even" \
	$B show sgemm/warptile --set CLUSTER=2 --set m=384 --ptx --arch sm_90
expect "sgemm variants: FRAG=1 needs ALOAD 1" 2 "written for ALOAD 1" \
	$B show sgemm/warptile --set FRAG=1 --set ALOAD=2 --ptx --arch sm_90
expect "sgemm variants: FRAG=1 compiles for sm_80 too" 0 "sgemm_warptile" \
	$B show sgemm/warptile --set FRAG=1 --ptx --arch sm_80
# Spills: the local-memory instructions in the SASS (needs nvdisasm, as show --sass does). TN=8 WN=32
# makes 512-thread blocks, 128 registers a thread at most: there FRAG=1 fits without spilling only
# with the FMAs row by row (FMAORDER=0; the default column order spills a few words).
for s in "FRAG=1" "FRAG=1 TN=8 WN=32 FMAORDER=0" "CLUSTER=2" "FRAG=1 CLUSTER=2"; do
	a=""; for x in $s; do a="$a --set $x"; done
	# shellcheck disable=SC2086
	out=$(timeout 300 $B show sgemm/warptile $a --sass --arch sm_90 2>&1); rc=$?
	if [ $rc != 0 ] && printf '%s' "$out" | grep -q "nvdisasm is not installed"; then
		skip "sgemm variants: $s spills: nvdisasm is not installed"; continue
	fi
	if [ $rc != 0 ]; then fail "sgemm variants: $s --sass exited $rc: $(printf '%s' "$out" | head -2)"; continue; fi
	n=$(printf '%s\n' "$out" | grep -Ec '\b(LDL|STL)\b')
	if [ "$n" = 0 ] && printf '%s\n' "$out" | grep -q FFMA; then pass "sgemm variants: $s has no local memory in its SASS"
	else fail "sgemm variants: $s: $n LDL/STL in the SASS"; fi
done
