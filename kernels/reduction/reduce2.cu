/* reduce2: sequential addressing: at each step the first s threads add the upper half of the live
 * range onto the lower half, so a warp reads 32 consecutive words (no bank conflicts).
 * Pass 1 of 2: one partial sum per block of BLOCK inputs. */
#include "common.cuh"

extern "C" __global__ void reduce2(const int *__restrict__ x, int *__restrict__ partials, long long n)
{
	extern __shared__ int sdata[];
	const unsigned int tid = threadIdx.x;
	const long long i = (long long)blockIdx.x * blockDim.x + tid;

	sdata[tid] = i < n ? x[i] : 0;
	__syncthreads();

	for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sdata[tid] += sdata[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		partials[blockIdx.x] = sdata[0];
}
