#!/bin/sh
# The dp lesson's kernels without a GPU: each .cu file is compiled for the host with a small shim
# (tests/fixtures/dp_emu: a warp as 32 threads in lockstep, shuffles and __syncwarp as barriers, the
# DPX intrinsics written out per their documentation) and run on random batches at odd sizes (1 to
# 7 pairs, lengths 1 to 97 around the strips of 32, zero and large scores, the 16-bit stage at 31 x
# 97), every pair's score compared with a plain Gotoh reference. The stages must be exact; the
# exercise's starter must be wrong. Needs a C++20 compiler (<barrier>): a visible SKIP without one.
. tests/lib.sh
F=tests/fixtures/dp_emu
K=kernels/dp
CXX=${CXX:-g++}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

printf '#include <barrier>\nint main() { std::barrier<> b(1); b.arrive_and_wait(); }\n' >"$T/probe.cpp"
if ! command -v "$CXX" >/dev/null 2>&1 || ! "$CXX" -std=c++20 -pthread "$T/probe.cpp" -o "$T/probe" >/dev/null 2>&1; then
	skip "dp emulation: no C++20 compiler ($CXX) with <barrier>"; exit 0
fi

# emu NAME FILE ENTRY DEFINES...: compile FILE's kernel ENTRY with the shim into $T/NAME
emu() {
	name=$1 file=$2 entry=$3; shift 3
	timeout 120 "$CXX" -std=c++20 -O1 -pthread -include "$F/shim.h" -I"$K" -DKFILE="\"$PWD/$file\"" \
		-DKNAME="\"$name\"" -DENTRY="$entry" "$@" "$F/main.cpp" -o "$T/$name" >"$T/$name.log" 2>&1
}
for s in "row sw_row -DROW" "diag sw_diag -DPERWARP=1" "dpx sw_dpx -DPERWARP=1" "dpx16 sw_dpx16 -DPERWARP=2"; do
	set -- $s
	if ! emu "$1" "$K/$1.cu" "$2" "$3"; then fail "dp emulation $1: does not compile for the host"; head -10 "$T/$1.log" | sed 's/^/    /'; continue; fi
	out=$(timeout 120 "$T/$1" 7 2>&1); rc=$?
	if [ $rc -eq 0 ]; then pass "dp emulation $1: every pair exact ($out)"
	else fail "dp emulation $1: exit $rc"; printf '%s\n' "$out" | head -8 | sed 's/^/    /'; fi
done
if ! emu starter "$K/exercises/diag.cu" sw_diag -DPERWARP=1; then fail "dp emulation starter: does not compile for the host"; head -10 "$T/starter.log" | sed 's/^/    /'
else
	out=$(timeout 120 "$T/starter" 7 2>&1); rc=$?
	if [ $rc -eq 1 ]; then pass "dp emulation starter: wrong, as a starter should be ($(printf '%s\n' "$out" | tail -1))"
	else fail "dp emulation starter: exit $rc, expected wrong pairs"; printf '%s\n' "$out" | head -5 | sed 's/^/    /'; fi
fi
