/* reduce0: interleaved addressing, the divergent test tid % (2 * s) == 0 (Harris's first kernel).
 * Pass 1 of 2: each block of BLOCK threads adds BLOCK inputs and writes one partial sum.
 * The tree loop uses blockDim.x, as the classic kernel does, so nothing here is known at compile time. */
#include "common.cuh"

extern "C" __global__ void reduce0(const int *__restrict__ x, int *__restrict__ partials, long long n)
{
	extern __shared__ int sdata[];
	const unsigned int tid = threadIdx.x;
	const long long i = (long long)blockIdx.x * blockDim.x + tid;

	sdata[tid] = i < n ? x[i] : 0;   /* past the end: 0, the identity of + */
	__syncthreads();

	for (unsigned int s = 1; s < blockDim.x; s *= 2) {
		/* Only every (2s)-th thread works: the active threads are spread over every warp, and the
		 * modulo by a value unknown at compile time is a sequence of integer instructions. */
		if (tid % (2 * s) == 0)
			sdata[tid] += sdata[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		partials[blockIdx.x] = sdata[0];
}
