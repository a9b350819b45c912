#!/bin/sh
# The stream-K walk (kernels/common/seg_walk.cuh) without a GPU: tests/fixtures/seg_walk/main.cpp
# builds every cluster's list of segments on the host for 17000-odd shapes (1 to 40 x 1 to 40 tiles,
# 1 to 132 clusters, 1 to 128 k-steps, and the lessons' 4096^3 and 8192^3), in grouped and Hilbert
# order, and checks what the stream-K kernels rely on: every k-step of every tile computed once; at
# most one written part a run, computed before any part that waits; each tile's adder reads exactly
# the parts written for it. A copy of the walk with the later-tile-first rule taken out must fail.
# Needs a C++17 compiler: a visible SKIP without one.
. tests/lib.sh
F=tests/fixtures/seg_walk
CXX=${CXX:-g++}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

printf 'int main() { return 0; }\n' >"$T/probe.cpp"
if ! command -v "$CXX" >/dev/null 2>&1 || ! "$CXX" -std=c++17 "$T/probe.cpp" -o "$T/probe" >/dev/null 2>&1; then
	skip "seg_walk: no C++17 compiler ($CXX)"; exit 0
fi

# walk NAME INCLUDE-DIR DEFINES...: build and run the check; its exit status and output in $rc, $out
walk() {
	name=$1 inc=$2; shift 2
	if ! timeout 120 "$CXX" -std=c++17 -O1 -I"$inc" "$@" "$F/main.cpp" -o "$T/$name" >"$T/$name.log" 2>&1; then
		rc=compile; out=$(head -5 "$T/$name.log"); return
	fi
	out=$(timeout 120 "$T/$name" 2>&1); rc=$?
}
for v in "grouped8 -DGROUP_M=8 -DORDER=0" "grouped1 -DGROUP_M=1 -DORDER=0" "hilbert -DGROUP_M=16 -DORDER=1"; do
	set -- $v
	name=$1; shift
	walk "$name" kernels/common -DSTREAMK=1 "$@"
	if [ "$rc" = 0 ]; then pass "seg_walk $name: $out"
	else fail "seg_walk $name: exit $rc"; printf '%s\n' "$out" | head -5 | sed 's/^/    /'; fi
done
walk rounds kernels/common -DSTREAMK=0 -DGROUP_M=8 -DORDER=0
if [ "$rc" = 0 ] && printf '%s' "$out" | grep -q " 0 split tiles"; then pass "seg_walk without STREAMK: whole tiles only ($out)"
else fail "seg_walk without STREAMK: exit $rc: $out"; fi

# The planted fault: runs taken in their own order (the part from k = 0 last), as before 2fc1dac.
mkdir -p "$T/inc"
sed 's/if (s1 < u_end) {/if (0) {/' kernels/common/seg_walk.cuh >"$T/inc/seg_walk.cuh"
if cmp -s kernels/common/seg_walk.cuh "$T/inc/seg_walk.cuh"; then fail "seg_walk planted: the rule to take out was not found"
else
	walk planted "$T/inc" -DSTREAMK=1 -DGROUP_M=8 -DORDER=0
	if [ "$rc" = 1 ] && printf '%s' "$out" | grep -q "not from k = 0"; then pass "seg_walk planted: the walk in run order fails ($out)"
	else fail "seg_walk planted: exit $rc, expected a broken rule: $out"; fi
fi
