// dp/dpx: the diag stage's wavefront, step for step, with each cell's maxima written as Hopper's
// DPX intrinsics (CUDA Math API, "DPX"): __viaddmax_s32(a, b, c) = max(a + b, c) for E and F, and
// __vimax3_s32_relu(a, b, c) = max(a, b, c, 0) for H. They compile on every GPU; sm_90 has them as
// instructions, elsewhere the header spells them out as plain adds and maxima.
#include "common.cuh"

#ifndef WARPS
#define WARPS 4
#endif

// Shared memory per warp, in 4-byte words: the boundary row's H and F (n + 1 each) and b's bases.
__device__ __forceinline__ int dp_words(int n) { return 2 * (n + 1) + (n + 3) / 4; }

extern "C" __global__ void __launch_bounds__(WARPS * 32)
sw_dpx(const unsigned char *a, const unsigned char *b, int *score, int pairs, int m, int n,
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
		for (int t = 0; t < n + rows - 1; t++) {
			const int j = t - lane;             // 0-based column: J = j + 1
			// lane l - 1's cell of the previous step: H[I-1][J] and F[I-1][J]
			int up = __shfl_up_sync(DP_FULL, h, 1), fup = __shfl_up_sync(DP_FULL, f, 1);
			if (lane == 0 && j < n) { up = bH[j + 1]; fup = bF[j + 1]; }
			if (j >= 0 && j < n) {
				const int s = ai == bs[j] ? match : -mismatch;
				e = __viaddmax_s32(e, -gap_ext, h - gap_open);      // max(e - gap_ext, h - gap_open)
				f = __viaddmax_s32(fup, -gap_ext, up - gap_open);   // max(fup - gap_ext, up - gap_open)
				h = __vimax3_s32_relu(diag + s, e, f);              // max(diag + s, e, f, 0)
				if (real) best = max(best, h);
				if (lane == 31) { bH[j + 1] = h; bF[j + 1] = f; }   // the next strip's row above
			}
			diag = up;                          // next step, this is H[I-1][J-1]
			__syncwarp();                       // lane 31's writes before lane 0's later reads
		}
	}
	best = dp_warp_max(best);
	if (lane == 0) score[p] = best;
}
