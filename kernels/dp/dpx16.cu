// dp/dpx16: the dpx wavefront with two pairs per warp, one in each 16-bit half of every register.
// Lane l computes row I of both pairs at once: H, E and F are packed as (pair p in the low half,
// pair p + 1 in the high half), and every add and max works on both halves in one instruction:
// __vadd2 / __vsub2, __viaddmax_s16x2 (max(a + b, c)), __vimax3_s16x2_relu (max(a, b, c, 0)).
// One shuffle moves two cells, one max serves two pairs. Exact while every value fits in a signed
// 16-bit half: H <= match * min(m, n) and E, F >= -gap_open - gap_ext (the stage's constraint).
#include "common.cuh"

#ifndef WARPS
#define WARPS 4
#endif

// Shared memory per warp, in 4-byte words: the boundary row's packed H and F (n + 1 each) and the
// two pairs' bases of b, packed (b of pair p in the low half, of p + 1 in the high half).
__device__ __forceinline__ int dp_words(int n) { return 3 * n + 2; }

// x in both 16-bit halves
__device__ __forceinline__ unsigned dp_pack(int x) { return ((unsigned)x & 0xffffu) * 0x10001u; }

extern "C" __global__ void __launch_bounds__(WARPS * 32)
sw_dpx16(const unsigned char *a, const unsigned char *b, int *score, int pairs, int m, int n,
         int match, int mismatch, int gap_open, int gap_ext)
{
	extern __shared__ unsigned smem16[];
	const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
	const long long p = 2 * ((long long)blockIdx.x * WARPS + w);   // pairs p and p + 1
	if (p >= pairs) return;
	const bool two = p + 1 < pairs;             // an odd batch: the last warp's high half is idle
	unsigned *bH = smem16 + w * dp_words(n), *bF = bH + (n + 1), *bs = bF + (n + 1);
	const unsigned char *pa = a + p * m, *pb = b + p * n;
	const unsigned open2 = dp_pack(gap_open), next2 = dp_pack(-gap_ext);
	const unsigned mis2 = dp_pack(-mismatch), gain2 = dp_pack(match + mismatch);
	for (int J = lane; J <= n; J += 32) {
		bH[J] = 0;
		bF[J] = dp_pack(-gap_open);
		if (J < n) bs[J] = pb[J] | (two ? (unsigned)pb[n + J] << 16 : 0xff0000u);
	}
	__syncwarp();

	unsigned best = 0;
	for (int strip = 0; strip < m; strip += 32) {
		const int rows = min(32, m - strip);
		const bool real = lane < rows;
		const unsigned ai = real ? pa[strip + lane] | (two ? (unsigned)pa[m + strip + lane] << 16 : 0xfe0000u) : 0xfefeu;
		unsigned h = 0, e = dp_pack(-gap_open), f = e, diag = 0;
		for (int t = 0; t < n + rows - 1; t++) {
			const int j = t - lane;
			unsigned up = __shfl_up_sync(DP_FULL, h, 1), fup = __shfl_up_sync(DP_FULL, f, 1);
			if (lane == 0 && j < n) { up = bH[j + 1]; fup = bF[j + 1]; }
			if (j >= 0 && j < n) {
				// per half: match where the bases agree (__vcmpeq2 gives 0xffff there), else -mismatch
				const unsigned s = __vadd2(mis2, __vcmpeq2(ai, bs[j]) & gain2);
				e = __viaddmax_s16x2(e, next2, __vsub2(h, open2));
				f = __viaddmax_s16x2(fup, next2, __vsub2(up, open2));
				h = __vimax3_s16x2_relu(__vadd2(diag, s), e, f);
				if (real) best = __vmaxs2(best, h);
				if (lane == 31) { bH[j + 1] = h; bF[j + 1] = f; }
			}
			diag = up;
			__syncwarp();
		}
	}
	const int lo = dp_warp_max((short)(best & 0xffffu)), hi = dp_warp_max((short)(best >> 16));
	if (lane == 0) {
		score[p] = lo;
		if (two) score[p + 1] = hi;
	}
}
