/* Exercise reduce1: the same tree as reduce0, with the work handed to the first threads.
 *
 * In reduce0 the thread that adds at step s is the one whose index is a multiple of 2s, so the busy
 * threads are scattered over every warp and no warp can sit a step out. Keep the same pairs (slot
 * j receives slot j + s, for j a multiple of 2s) but give pair number t to thread t: then the busy
 * threads are the first BLOCK / (2s) of the block, and whole warps go idle together.
 *
 * What to do:
 *   1. In the tree loop, compute the slot this thread works on at stride s.
 *   2. If that slot is inside the block, add the value s slots to its right onto it.
 *   The load into shared memory, the barriers and the final write are already there.
 *
 * Tunables (-D): BLOCK, threads per block (a power of two; the loop reads blockDim.x, as Harris's does).
 * Passing: the exact sum at every size, and at least 0.9x the speed of the stage's own kernel.
 * Pass 1 of 2: reduce_partials (common.cuh) adds the per-block partials. */
#include "common.cuh"

extern "C" __global__ void reduce1(const int *__restrict__ x, int *__restrict__ partials, long long n)
{
	extern __shared__ int sdata[];
	const unsigned int tid = threadIdx.x;
	const long long i = (long long)blockIdx.x * blockDim.x + tid;

	sdata[tid] = i < n ? x[i] : 0;   /* past the end: 0, the identity of + */
	__syncthreads();

	for (unsigned int s = 1; s < blockDim.x; s *= 2) {
		/* TODO(1): the slot thread tid works on at this step (no % needed). */
		/* TODO(2): if it lies inside the block, add sdata[slot + s] onto sdata[slot]. */
		__syncthreads();
	}
	if (tid == 0)
		partials[blockIdx.x] = sdata[0];
}
