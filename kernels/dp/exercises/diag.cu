// Exercise dp/diag: the anti-diagonal wavefront, one warp per pair.
// The warp takes the rows of a in strips of 32, one row per lane (lane l: row I = strip + l + 1).
// A cell needs H and F from the row above at its own column (H[I-1][J], F[I-1][J]) and H from the
// row above one column to the left (the diagonal, H[I-1][J-1]); from its own row, H and E one
// column to the left. Lane l - 1 computes the row above: its values reach lane l by
// __shfl_up_sync. Lane 0's row above comes from shared memory (bH, bF), where lane 31 of the
// previous strip wrote it.
//
// As written, every lane works on the same column in the same step, and the result is wrong.
// TODO: make the 32 cells of one step an anti-diagonal, so that what the shuffle brings is ready.
#include "common.cuh"

#ifndef WARPS
#define WARPS 4
#endif

// Shared memory per warp, in 4-byte words: the boundary row's H and F (n + 1 each) and b's bases.
__device__ __forceinline__ int dp_words(int n) { return 2 * (n + 1) + (n + 3) / 4; }

extern "C" __global__ void __launch_bounds__(WARPS * 32)
sw_diag(const unsigned char *a, const unsigned char *b, int *score, int pairs, int m, int n,
        int match, int mismatch, int gap_open, int gap_ext)
{
	extern __shared__ int smem[];
	const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
	const long long p = (long long)blockIdx.x * WARPS + w;
	if (p >= pairs) return;                     // the whole warp leaves together
	int *bH = smem + w * dp_words(n), *bF = bH + (n + 1);
	unsigned char *bs = (unsigned char *)(bF + (n + 1));
	const unsigned char *pa = a + p * m, *pb = b + p * n;
	for (int J = lane; J <= n; J += 32) {       // row 0, and b staged once
		bH[J] = 0;
		bF[J] = -gap_open;
		if (J < n) bs[J] = pb[J];
	}
	__syncwarp();

	int best = 0;
	for (int strip = 0; strip < m; strip += 32) {
		const int rows = min(32, m - strip);
		const bool real = lane < rows;          // lanes past the last row compute, but do not count
		const int ai = real ? pa[strip + lane] : 0;
		int h = 0, e = -gap_open, f = -gap_open, diag = 0;   // H[I][J-1], E[I][J-1], F[I][J-1], H[I-1][J-1]
		// TODO: which column should lane l work on in step t, and how many steps does a strip take?
		for (int t = 0; t < n; t++) {
			const int j = t;                    // 0-based column: J = j + 1
			int up = __shfl_up_sync(DP_FULL, h, 1), fup = __shfl_up_sync(DP_FULL, f, 1);
			if (lane == 0 && j < n) { up = bH[j + 1]; fup = bF[j + 1]; }
			if (j >= 0 && j < n) {
				const int s = ai == bs[j] ? match : -mismatch;
				e = max(e - gap_ext, h - gap_open);
				f = max(fup - gap_ext, up - gap_open);
				h = max(max(diag + s, 0), max(e, f));
				if (real) best = max(best, h);
				if (lane == 31) { bH[j + 1] = h; bF[j + 1] = f; }   // the next strip's row above
			}
			diag = up;
			__syncwarp();
		}
	}
	best = dp_warp_max(best);
	if (lane == 0) score[p] = best;
}
