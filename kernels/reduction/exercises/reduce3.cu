/* Exercise reduce3: do the first addition while loading.
 *
 * In reduce2 half of the threads stop working right after their single load. Here the launch gives
 * each block 2 * BLOCK inputs (the grid is ceil_div(n, 2 * BLOCK) blocks), so every thread loads two
 * inputs a block apart, adds them, and stores one value: no thread idles in the first step, and each
 * has two independent loads in flight. The tree that follows is reduce2's, unchanged.
 *
 * As written the kernel still covers only BLOCK inputs per block, so half of the array is never
 * added (and neighbouring blocks overlap).
 *
 * What to do:
 *   1. Compute the index of the thread's first input: blocks are 2 * BLOCK inputs apart.
 *   2. Load both inputs, x[i] and x[i + blockDim.x], each as 0 when it lies past n, and store their sum.
 *
 * Tunables (-D): BLOCK, threads per block (a power of two; the loop reads blockDim.x).
 * Passing: the exact sum at every size, and at least 0.9x the speed of the stage's own kernel.
 * Pass 1 of 2: reduce_partials (common.cuh) adds the per-block partials. */
#include "common.cuh"

extern "C" __global__ void reduce3(const int *__restrict__ x, int *__restrict__ partials, long long n)
{
	extern __shared__ int sdata[];
	const unsigned int tid = threadIdx.x;
	/* TODO(1): each block now starts 2 * blockDim.x inputs after the previous one. */
	const long long i = (long long)blockIdx.x * blockDim.x + tid;

	/* TODO(2): add the second input, blockDim.x further on, when it exists. */
	int v = i < n ? x[i] : 0;
	sdata[tid] = v;
	__syncthreads();

	for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sdata[tid] += sdata[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		partials[blockIdx.x] = sdata[0];
}
