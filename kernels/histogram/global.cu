/* global: one thread per key, one atomicAdd per key straight into the histogram in global memory.
 * The adds to one bin meet at one address in the L2, which performs them one after another. */
#include "common.cuh"

extern "C" __global__ void hist_global(const unsigned *__restrict__ keys, unsigned *hist, long long n, int bins)
{
	const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&hist[bin_of(keys[i], bins)], 1u);
}
