// Shared by the dp lesson's kernels: Smith-Waterman local alignment with affine gaps (Gotoh), the
// best score of each pair of sequences. With 1-based rows I (sequence a, length m) and columns J
// (sequence b, length n):
//   E[I][J] = max(E[I][J-1] - gap_ext, H[I][J-1] - gap_open)        a gap in a, along the row
//   F[I][J] = max(F[I-1][J] - gap_ext, H[I-1][J] - gap_open)        a gap in b, down the column
//   H[I][J] = max(0, H[I-1][J-1] + s(a[I], b[J]), E[I][J], F[I][J])
// with H = 0 on row 0 and column 0, s = match or -mismatch, and the score the largest H.
// E and F start at -gap_open on the border instead of minus infinity: since H >= 0 everywhere, the
// first real E or F of a row or column is H - gap_open >= -gap_open anyway, so the border value
// never wins a max and the result is the same, while every value stays in [-gap_open - gap_ext,
// match * min(m, n)] (what lets the 16-bit stage pack two cells in one register).
#pragma once

#define DP_FULL 0xffffffffu

// The largest v over the 32 lanes of a warp, in every lane.
__device__ __forceinline__ int dp_warp_max(int v)
{
	for (int o = 16; o > 0; o >>= 1)
		v = max(v, __shfl_xor_sync(DP_FULL, v, o));
	return v;
}
