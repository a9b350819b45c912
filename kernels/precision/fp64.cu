// The reference: FP32 storage, FP64 arithmetic. Each element is read as an FP32 float and widened to
// a double, which is exact; v = gain * x, its square and the running sums are all in FP64, so the only
// rounding that matters is the final one to the FP32 result. Every other stage is checked against
// this one. The second launch of this stage, prepare_copies (copies.cuh), makes the BF16, FP16 and
// FP8 copies the later stages read.
//
// Tunables (-D): WARPS (warps per block, one row per warp at a time), UNROLL (16-byte loads per lane in
// flight), BLOCKS_PER_SM (the grid: sm_count * BLOCKS_PER_SM blocks at most).
#include "copies.cuh"

extern "C" __global__ void rms_fp64(const float *__restrict__ x, float *__restrict__ rms, float gain,
                                    long long rows, long long cols)
{
	const int lane = lane_id();
	const double g = gain;
	for (long long r = first_row(); r < rows; r += row_step()) {
		const float *row = x + r * cols;
		double s = 0.0;
		if (cols % 4 == 0) {                       // every row starts on a 16-byte boundary
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
					const double a = g * q[u].x, b = g * q[u].y, c = g * q[u].z, d = g * q[u].w;
					s = fma(a, a, s); s = fma(b, b, s); s = fma(c, c, s); s = fma(d, d, s);
				}
			}
		} else {                                   // rows not 16-byte aligned: one float at a time
			for (long long j = lane; j < cols; j += 32) {
				const double a = g * row[j];
				s = fma(a, a, s);
			}
		}
		s = warp_sum(s);
		if (lane == 0) rms[r] = (float)sqrt(s / (double)cols);
	}
}
