// The last pass of the three-pass and online stages: y = exp(x - max) / sum, element by element over
// all rows * cols values, with the row's maximum and sum from the earlier kernels.
#ifndef SOFTMAX_NORMALISE_CUH
#define SOFTMAX_NORMALISE_CUH
#include "common.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK) normalise(const float *__restrict__ x, const float *__restrict__ mx,
                                                            const float *__restrict__ sum, float *__restrict__ y, int cols,
                                                            long long total)
{
	const long long e = (long long)blockIdx.x * BLOCK + threadIdx.x;
	if (e >= total) return;
	const long long r = e / cols;
	y[e] = expf(x[e] - mx[r]) / sum[r];
}
#endif
