// FP16 storage, FP32 arithmetic by default. xh holds v = gain * x rounded to FP16: the same 2 bytes as
// BF16, spent differently (5 exponent bits and 11 significant bits against BF16's 8 and 8), so each
// value is 8 times more precise but the range ends at 65504. Each pair is widened with __half22float2
// (exact), then squared and summed in FP32.
//
// ACC=16 keeps the sums in FP16 instead (__hfma2 on pairs, the shuffles on halves), as a kernel that
// never widens would: the bytes are the same, and the error is the point.
//
// Tunables (-D): WARPS, UNROLL, BLOCKS_PER_SM (as the reference), ACC (32 or 16: the sums' format).
#include "common.cuh"

extern "C" __global__ void rms_fp16(const __half *__restrict__ xh, float *__restrict__ rms,
                                    long long rows, long long cols)
{
	const int lane = lane_id();
	for (long long r = first_row(); r < rows; r += row_step()) {
		const __half *row = xh + r * cols;
#if ACC == 16
		__half2 s2 = __float2half2_rn(0.0f);
#else
		float s = 0.0f;
#endif
		if (cols % 8 == 0) {
			const uint4 *row8 = reinterpret_cast<const uint4 *>(row);
			const long long n8 = cols / 8;
			for (long long j0 = lane; j0 < n8; j0 += 32 * UNROLL) {
				uint4 q[UNROLL];
#pragma unroll
				for (int u = 0; u < UNROLL; u++) {
					const long long j = j0 + 32LL * u;
					q[u] = j < n8 ? row8[j] : make_uint4(0u, 0u, 0u, 0u);   // +0.0 in FP16
				}
#pragma unroll
				for (int u = 0; u < UNROLL; u++) {
					const __half2 *h = reinterpret_cast<const __half2 *>(&q[u]);
#pragma unroll
					for (int k = 0; k < 4; k++) {
#if ACC == 16
						s2 = __hfma2(h[k], h[k], s2);
#else
						const float2 f = __half22float2(h[k]);
						s = fmaf(f.y, f.y, fmaf(f.x, f.x, s));
#endif
					}
				}
			}
		} else {
			for (long long j = lane; j < cols; j += 32) {
#if ACC == 16
				const __half2 a = __halves2half2(row[j], __float2half(0.0f));
				s2 = __hfma2(a, a, s2);
#else
				const float a = __half2float(row[j]);
				s = fmaf(a, a, s);
#endif
			}
		}
#if ACC == 16
		__half h = __hadd(__low2half(s2), __high2half(s2));
		for (int o = 16; o > 0; o >>= 1) h = __hadd(h, __shfl_xor_sync(0xffffffffu, h, o));
		const float s = __half2float(h);
#else
		s = warp_sum(s);
#endif
		if (lane == 0) rms[r] = sqrtf(s / (float)cols);
	}
}
