// BF16 storage, FP32 arithmetic. xb holds v = gain * x rounded to BF16, 2 bytes an element, so a
// 16-byte load brings 8 elements instead of 4 and the row is half the bytes. A BF16 number is the top
// half of the FP32 number with the same sign and exponent: widening one is a 16-bit shift, exact, and
// from there on the squares and sums are FP32 as in the previous stage.
//
// Tunables (-D): WARPS, UNROLL, BLOCKS_PER_SM (as the reference).
#include "common.cuh"

// The two BF16 values packed in a 32-bit word (the element at the lower address is the low half),
// widened to FP32 and squared into s.
__device__ __forceinline__ float add_squares_bf16x2(unsigned w, float s)
{
	const float lo = __uint_as_float(w << 16), hi = __uint_as_float(w & 0xffff0000u);
	return fmaf(hi, hi, fmaf(lo, lo, s));
}

extern "C" __global__ void rms_bf16(const __nv_bfloat16 *__restrict__ xb, float *__restrict__ rms,
                                    long long rows, long long cols)
{
	const int lane = lane_id();
	for (long long r = first_row(); r < rows; r += row_step()) {
		const __nv_bfloat16 *row = xb + r * cols;
		float s = 0.0f;
		if (cols % 8 == 0) {                       // 8 BF16 = 16 bytes: rows start aligned
			const uint4 *row8 = reinterpret_cast<const uint4 *>(row);
			const long long n8 = cols / 8;
			for (long long j0 = lane; j0 < n8; j0 += 32 * UNROLL) {
				uint4 q[UNROLL];
#pragma unroll
				for (int u = 0; u < UNROLL; u++) {
					const long long j = j0 + 32LL * u;
					q[u] = j < n8 ? row8[j] : make_uint4(0u, 0u, 0u, 0u);   // +0.0 in BF16
				}
#pragma unroll
				for (int u = 0; u < UNROLL; u++) {
					s = add_squares_bf16x2(q[u].x, s);
					s = add_squares_bf16x2(q[u].y, s);
					s = add_squares_bf16x2(q[u].z, s);
					s = add_squares_bf16x2(q[u].w, s);
				}
			}
		} else {
			for (long long j = lane; j < cols; j += 32) {
				const float a = __bfloat162float(row[j]);
				s = fmaf(a, a, s);
			}
		}
		s = warp_sum(s);
		if (lane == 0) rms[r] = sqrtf(s / (float)cols);
	}
}
