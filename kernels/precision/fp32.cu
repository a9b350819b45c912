// FP32 storage, FP32 arithmetic: the same loads as the reference, but v = gain * x, its square and
// the sums are floats. Each fmaf rounds its result to 24 significant bits, so the running sum of a
// lane drifts by about 2^-24 of its size at each step; over the 128 squares a lane adds at 4096
// columns and the 31 shuffle additions, that is still far below 1e-6 of the result.
//
// Tunables (-D): WARPS, UNROLL, BLOCKS_PER_SM (as the reference).
#include "common.cuh"

extern "C" __global__ void rms_fp32(const float *__restrict__ x, float *__restrict__ rms, float gain,
                                    long long rows, long long cols)
{
	const int lane = lane_id();
	for (long long r = first_row(); r < rows; r += row_step()) {
		const float *row = x + r * cols;
		float s = 0.0f;
		if (cols % 4 == 0) {
			const float4 *row4 = reinterpret_cast<const float4 *>(row);
			const long long n4 = cols / 4;
			for (long long j0 = lane; j0 < n4; j0 += 32 * UNROLL) {
				float4 q[UNROLL];
#pragma unroll
				for (int u = 0; u < UNROLL; u++) {
					const long long j = j0 + 32LL * u;
					q[u] = j < n4 ? row4[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
				}
#pragma unroll
				for (int u = 0; u < UNROLL; u++) {
					const float a = gain * q[u].x, b = gain * q[u].y, c = gain * q[u].z, d = gain * q[u].w;
					s = fmaf(a, a, s); s = fmaf(b, b, s); s = fmaf(c, c, s); s = fmaf(d, d, s);
				}
			}
		} else {
			for (long long j = lane; j < cols; j += 32) {
				const float a = gain * row[j];
				s = fmaf(a, a, s);
			}
		}
		s = warp_sum(s);
		if (lane == 0) rms[r] = sqrtf(s / (float)cols);
	}
}
