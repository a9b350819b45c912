// A SAXPY that first spends `steps` dependent fused multiply-adds on each element without changing
// it: t = t * one + zero, with one = 1 and zero = 0 passed at run time so the compiler cannot drop
// them. fmaf(t, 1, 0) is t exactly for every finite t that is not -0 (and -0 times a, plus y, is y
// either way), so the result has the same bits as the plain SAXPY's. The steps stand for a kernel's
// real arithmetic: ten times fewer of them is what a 10x faster kernel looks like from outside.
#pragma once

__device__ __forceinline__ void work_at(const float *x, const float *y, float *z, float a, long long n, int steps, float one,
                                        float zero)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= n) return;
	float t = x[i];
	for (int k = 0; k < steps; k++) t = fmaf(t, one, zero);
	z[i] = fmaf(a, t, y[i]);
}
