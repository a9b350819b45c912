/* Exercise reduce4: let the last warp finish the tree on its own.
 *
 * In reduce3 every step of the tree ends in a __syncthreads that stops the whole block, even in the
 * last steps, where only the first warp has anything to add. Here the block-wide loop stops when 64
 * values are left; the first warp then folds those 64 into one with strides 32, 16, 8, 4, 2, 1,
 * without block barriers.
 *
 * Since Volta the lanes of a warp are not guaranteed to run in lock step (each has its own program
 * counter), so the classic `volatile` version without any barrier can read a neighbour's slot after
 * the neighbour has overwritten it. Each step must read, wait for the warp (__syncwarp()), write, and
 * wait again.
 *
 * What to do:
 *   1. Write last_warp_sum: starting from sdata[tid], six steps that add sdata[tid + s] for
 *      s = 32 .. 1, store the running value back, and keep the warp in step with __syncwarp().
 *
 * Tunables (-D): BLOCK, threads per block (a power of two, at least 64).
 * Passing: the exact sum at every size, and at least 0.9x the speed of the stage's own kernel.
 * Pass 1 of 2: reduce_partials (common.cuh) adds the per-block partials. */
#include "common.cuh"

/* Called by the 32 threads of the first warp once 64 values are left in sdata[0 .. 63].
 * Returns the block's sum in thread 0. */
__device__ __forceinline__ int last_warp_sum(int *sdata, unsigned int tid)
{
	int v = sdata[tid];
	/* TODO(1): six steps, s = 32, 16, 8, 4, 2, 1: read sdata[tid + s] into v, __syncwarp(),
	 * write v to sdata[tid], __syncwarp(). */
	return v;
}

extern "C" __global__ void reduce4(const int *__restrict__ x, int *__restrict__ partials, long long n)
{
	extern __shared__ int sdata[];
	const unsigned int tid = threadIdx.x;
	const long long i = (long long)blockIdx.x * (2 * blockDim.x) + tid;

	int v = i < n ? x[i] : 0;
	if (i + blockDim.x < n)
		v += x[i + blockDim.x];
	sdata[tid] = v;
	__syncthreads();

	for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {   /* stops with 64 values left */
		if (tid < s)
			sdata[tid] += sdata[tid + s];
		__syncthreads();
	}
	if (tid < 32) {
		v = last_warp_sum(sdata, tid);
		if (tid == 0)
			partials[blockIdx.x] = v;
	}
}
