/* shuffle: the loads of reduce6, but the in-block sum uses warp shuffles: each warp adds its 32
 * values register to register (__shfl_down_sync), lane 0 of each warp leaves one value in shared
 * memory, and the first warp adds those. Two __syncthreads-free levels instead of a shared tree.
 * Pass 1 of 2: one partial sum per block. BLOCK: a multiple of 32 up to 1024. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif

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

	/* Lane k adds lane k + offset's value: 16, 8, 4, 2, 1. All 32 lanes take part (full mask). */
#pragma unroll
	for (int offset = 16; offset > 0; offset >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, offset);
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();

	if (warp == 0) {
		v = lane < BLOCK / 32 ? warp_sums[lane] : 0;
#pragma unroll
		for (int offset = 16; offset > 0; offset >>= 1)
			v += __shfl_down_sync(0xffffffffu, v, offset);
		if (lane == 0)
			partials[blockIdx.x] = v;
	}
}
