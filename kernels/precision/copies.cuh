// The reduced-precision copies of the lesson's data, made once.
//
// The lesson's input is one FP32 matrix x. The BF16, FP16 and FP8 stages need the same values stored
// in their own formats, as a real program has them: weights and activations are converted once, when
// they are loaded or produced, not by the kernel that reads them. This kernel is that conversion. It
// runs as the second launch of the reference stage, which every checked run executes first on freshly
// filled inputs, and it converts only then: it returns at once when ready[0] is set, and the lesson's
// buffers (ready included) are filled afresh whenever the inputs are (a new seed, new sizes or a new
// gain). After the first run it costs one near-empty launch.
//
// v = gain * x is the value every stage works on. It is stored:
//   xb: BF16, rounded to nearest (8 significant bits, FP32's exponent range);
//   xh: FP16, rounded to nearest (11 significant bits, largest finite value 65504: beyond it, inf);
//   x8: FP8 e4m3 (4 significant bits, largest finite 448), after multiplying the row by
//       448 / max|v| so that its largest value lands on 448; s8[r] = max|v| / 448 undoes it.
#ifndef PRECISION_COPIES_CUH
#define PRECISION_COPIES_CUH
#include "common.cuh"
#include <cuda_fp8.h>

extern "C" __global__ void prepare_copies(const float *__restrict__ x, __nv_bfloat16 *__restrict__ xb,
                                          __half *__restrict__ xh, unsigned char *__restrict__ x8,
                                          float *__restrict__ s8, unsigned *ready, float gain,
                                          long long rows, long long cols)
{
	if (*(volatile unsigned *)ready) return;   // converted since the inputs were filled
	const int lane = lane_id();
	for (long long r = first_row(); r < rows; r += row_step()) {
		const float *row = x + r * cols;
		float amax = 0.0f;
		for (long long j = lane; j < cols; j += 32) amax = fmaxf(amax, fabsf(gain * row[j]));
		amax = warp_max(amax);
		const float scale = amax > 0.0f ? 448.0f / amax : 1.0f;
		for (long long j = lane; j < cols; j += 32) {
			const float v = gain * row[j];
			const long long i = r * cols + j;
			xb[i] = __float2bfloat16_rn(v);
			xh[i] = __float2half_rn(v);
			x8[i] = (unsigned char)__nv_cvt_float_to_fp8(v * scale, __NV_SATFINITE, __NV_E4M3);
		}
		if (lane == 0) s8[r] = amax > 0.0f ? amax / 448.0f : 1.0f;
	}
	// The last block to finish marks the copies ready: ready[1] counts finished blocks, so no block of
	// this launch can see ready[0] set, and every later launch does.
	__syncthreads();
	if (threadIdx.x == 0) {
		__threadfence();
		if (atomicAdd(&ready[1], 1u) == gridDim.x - 1) {
			__threadfence();
			*(volatile unsigned *)ready = 1u;
		}
	}
}
#endif
