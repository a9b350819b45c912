/* Exercise reduce2: sequential addressing, so that a warp reads consecutive words.
 *
 * reduce1 has thread t work on slot 2*s*t: the lanes of a warp touch words 2s apart, which pile onto
 * a few of the 32 shared-memory banks and are served one after another. Fold the other way instead:
 * at each step the upper half of the live range is added onto the lower half, word tid + s onto word
 * tid. A warp then reads 32 consecutive words, one per bank, and the busy threads stay at the front.
 *
 * What to do:
 *   1. Make the stride start at half the block and halve it each step, down to 1.
 *   2. In the loop, let the first s threads add the slot s places above their own.
 *
 * Tunables (-D): BLOCK, threads per block (a power of two; the loop reads blockDim.x).
 * Passing: the exact sum at every size, and at least 0.9x the speed of the stage's own kernel.
 * Pass 1 of 2: reduce_partials (common.cuh) adds the per-block partials. */
#include "common.cuh"

extern "C" __global__ void reduce2(const int *__restrict__ x, int *__restrict__ partials, long long n)
{
	extern __shared__ int sdata[];
	const unsigned int tid = threadIdx.x;
	const long long i = (long long)blockIdx.x * blockDim.x + tid;

	sdata[tid] = i < n ? x[i] : 0;
	__syncthreads();

	/* TODO(1): the first stride, and how it changes (the loop must still end). */
	for (unsigned int s = 0; s > 0; s >>= 1) {
		/* TODO(2): the first s threads fold the upper half of the live range onto the lower half. */
		__syncthreads();
	}
	if (tid == 0)
		partials[blockIdx.x] = sdata[0];
}
