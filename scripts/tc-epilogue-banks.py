#!/usr/bin/env python3
"""tc-epilogue-banks: a model of kernels/precision_gemm/tc.cuh's TMA-store epilogue (store_tile_tma), the
addresses each lane writes into a staging box of 64 rows x 32 floats under the 128-byte swizzle, with
EPI_SWZ 0 and 1. For every box of a 64 x 256 tile, warp, column group, row half and lane it checks that
each element is written exactly once, at the address the TMA box reads it from, with the accumulator
that the wgmma m64nNk* layout gives that thread for it; then counts the wavefronts of each half-warp's
8-byte stores (the most lanes on one bank). Exit status 1 on any mismatch; prints one line per EPI_SWZ.
The formulas are tc.cuh's, transcribed: change one there, change it here.

usage: scripts/tc-epilogue-banks.py
"""
import sys
from collections import Counter


def box_writes(swz, b):
    """The (address, accumulator index, bank) of every 4-byte write into box b, per (warp, e, h, half)."""
    out = {}
    for w in range(4):
        for e in range(4):
            for h in range(2):
                for lane in range(32):
                    r = w * 16 + lane // 4
                    odd = (lane >> 2) & 1
                    eo = (e ^ 3) if (swz and odd) else e
                    j = 4 * b + eo
                    chunk, within = 2 * eo + (lane % 4) // 2, 8 * (lane % 2)
                    row = r + 8 * h
                    at = row * 128 + ((chunk ^ (r % 8)) << 4) + within
                    for x in range(2):
                        out.setdefault((w, e, h, lane // 16), []).append((at + 4 * x, 4 * j + 2 * h + x, lane, w))
    return out


def check(swz):
    worst, wavefronts, errors = 0, 0, []
    for b in range(8):
        seen = set()
        for (w, e, h, half), writes in box_writes(swz, b).items():
            banks = Counter()
            for at, idx, lane, w_ in writes:
                j, hh, x = idx // 4, (idx % 4) // 2, idx % 2
                row, col = 16 * w_ + lane // 4 + 8 * hh, 8 * j + 2 * (lane % 4) + x - 32 * b   # what d[idx] holds
                want = row * 128 + (((col // 4) ^ (row % 8)) << 4) + (col % 4) * 4               # where TMA reads it
                if not 0 <= col < 32 or at != want:
                    errors.append("EPI_SWZ %d box %d warp %d e %d lane %d: writes %d, the box has it at %d" % (swz, b, w, e, lane, at, want))
                if at in seen:
                    errors.append("EPI_SWZ %d box %d: address %d written twice" % (swz, b, at))
                seen.add(at)
                banks[(at // 4) % 32] += 1
            worst = max(worst, max(banks.values()))
            wavefronts += max(banks.values())
        if len(seen) != 64 * 32:
            errors.append("EPI_SWZ %d box %d: %d of %d elements written" % (swz, b, len(seen), 64 * 32))
    return worst, wavefronts, errors


def main():
    bad = 0
    for swz in (0, 1):
        worst, wavefronts, errors = check(swz)
        for m in errors[:5]:
            print("FAIL " + m)
        bad += len(errors)
        print("EPI_SWZ %d: every element once, where the box reads it%s; %d-way at worst, %d wavefronts for a warpgroup's 64 x 256 tile"
              % (swz, "" if not errors else " (NOT: %d errors)" % len(errors), worst, wavefronts))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
