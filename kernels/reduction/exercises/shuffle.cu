/* Exercise shuffle: add a warp's values register to register instead of through a shared tree.
 *
 * The loads are reduce6's (a grid-stride loop, two inputs a block apart per step) and are written.
 * What changes is the sum inside the block: __shfl_down_sync(mask, v, offset) hands each lane the
 * value v of the lane `offset` places above it, straight from its register, with no shared memory
 * and no barrier. The full mask 0xffffffff says that all 32 lanes take part.
 *
 * What to do:
 *   1. Write warp_sum: five shuffle steps with offsets 16, 8, 4, 2, 1 leave the warp's total in lane 0.
 *   2. Call it on each thread's v, so that lane 0 of every warp holds its warp's sum.
 *   3. In the first warp, call it again on the BLOCK / 32 warp sums, so that lane 0 holds the block's.
 *
 * Tunables (-D): BLOCK (a multiple of 32, up to 1024), BLOCKS_PER_SM (only used by the launch).
 * Passing: the exact sum at every size, and at least 0.9x the speed of the stage's own kernel.
 * Pass 1 of 2: reduce_partials (common.cuh) adds the per-block partials. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif

/* All 32 lanes of a warp call this; the warp's total ends up in lane 0. */
__device__ __forceinline__ int warp_sum(int v)
{
	/* TODO(1): five __shfl_down_sync steps. */
	return v;
}

extern "C" __global__ void reduce_shuffle(const int *__restrict__ x, int *__restrict__ partials,
                                          long long n)
{
	__shared__ int warp_sums[BLOCK / 32];
	const unsigned int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	const long long stride = (long long)gridDim.x * (2 * BLOCK);
	long long i = (long long)blockIdx.x * (2 * BLOCK) + tid;

	int v = 0;
	while (i + BLOCK < n) {
		v += x[i] + x[i + BLOCK];
		i += stride;
	}
	if (i < n)
		v += x[i];

	/* TODO(2): reduce v across the warp. */
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();

	if (warp == 0) {
		v = lane < BLOCK / 32 ? warp_sums[lane] : 0;
		/* TODO(3): reduce the warp sums across the first warp. */
		if (lane == 0)
			partials[blockIdx.x] = v;
	}
}
