// The one kernel body every timing stage runs: z = a*x + y, one element per thread, written with an
// explicit fused multiply-add so that every stage gives the same bits (the check is exact).
#pragma once

__device__ __forceinline__ void saxpy_at(const float *x, const float *y, float *z, float a, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) z[i] = fmaf(a, x[i], y[i]);
}
