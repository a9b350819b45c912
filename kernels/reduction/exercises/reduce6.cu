/* Exercise reduce6: many inputs per thread.
 *
 * The grid is now sized to the GPU, not to the data: min(sm_count * BLOCKS_PER_SM,
 * ceil_div(n, 2 * BLOCK)) blocks. At the lesson's size that is far fewer threads than inputs, so each
 * thread must walk the array with a stride of the whole grid, adding into a register, before the
 * block's tree (reduce5's, already written below) runs once. As written each thread adds only the
 * pair reduce5 gave it, and most of the array is never read.
 *
 * What to do:
 *   1. Compute the grid-wide stride: a block still takes 2 * BLOCK inputs per round.
 *   2. Loop while both inputs of the pair, x[i] and x[i + BLOCK], exist: add them and step i.
 *   3. After the loop, the last pair may have only its first half: add x[i] if it exists.
 *
 * Tunables (-D): BLOCK (a power of two, 64 to 1024), BLOCKS_PER_SM (only used by the launch).
 * Passing: the exact sum at every size, and at least 0.9x the speed of the stage's own kernel.
 * Pass 1 of 2: reduce_partials (common.cuh) adds the per-block partials. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif

/* As in reduce4 and reduce5: one warp folds the last 64 values, __syncwarp between read and write. */
__device__ __forceinline__ int last_warp_sum(int *sdata, unsigned int tid)
{
	int v = sdata[tid];
#pragma unroll
	for (unsigned int s = 32; s > 0; s >>= 1) {
		v += sdata[tid + s];
		__syncwarp();
		sdata[tid] = v;
		__syncwarp();
	}
	return v;
}

extern "C" __global__ void reduce6(const int *__restrict__ x, int *__restrict__ partials, long long n)
{
	__shared__ int sdata[BLOCK];
	const unsigned int tid = threadIdx.x;
	long long i = (long long)blockIdx.x * (2 * BLOCK) + tid;

	/* TODO(1): the stride between two rounds of the same thread (64-bit). */
	/* TODO(2) and TODO(3): replace these two lines with the grid-stride loop and its last half-pair. */
	int v = i < n ? x[i] : 0;
	if (i + BLOCK < n) v += x[i + BLOCK];
	sdata[tid] = v;
	__syncthreads();

	if (BLOCK >= 1024) { if (tid < 512) sdata[tid] += sdata[tid + 512]; __syncthreads(); }
	if (BLOCK >= 512)  { if (tid < 256) sdata[tid] += sdata[tid + 256]; __syncthreads(); }
	if (BLOCK >= 256)  { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
	if (BLOCK >= 128)  { if (tid < 64)  sdata[tid] += sdata[tid + 64];  __syncthreads(); }
	if (tid < 32) {
		v = last_warp_sum(sdata, tid);
		if (tid == 0)
			partials[blockIdx.x] = v;
	}
}
