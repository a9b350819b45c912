/* reduce1: interleaved addressing with a strided index: thread t works on element 2*s*t, so the
 * active threads are the first ones of the block and whole warps drop out together.
 * Pass 1 of 2: one partial sum per block of BLOCK inputs. */
#include "common.cuh"

extern "C" __global__ void reduce1(const int *__restrict__ x, int *__restrict__ partials, long long n)
{
	extern __shared__ int sdata[];
	const unsigned int tid = threadIdx.x;
	const long long i = (long long)blockIdx.x * blockDim.x + tid;

	sdata[tid] = i < n ? x[i] : 0;
	__syncthreads();

	for (unsigned int s = 1; s < blockDim.x; s *= 2) {
		const unsigned int index = 2 * s * tid;
		/* Neighbouring threads touch words 2s apart: for s >= 16 the lanes of a warp pile onto a few
		 * of the 32 banks of shared memory, and the accesses are replayed one after another. */
		if (index < blockDim.x)
			sdata[index] += sdata[index + s];
		__syncthreads();
	}
	if (tid == 0)
		partials[blockIdx.x] = sdata[0];
}
