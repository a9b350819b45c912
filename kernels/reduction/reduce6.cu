/* reduce6: many inputs per thread. The grid is sized to the GPU (a few blocks per SM), and each
 * thread walks the array with a grid-sized stride, adding two inputs a block apart per step into a
 * register, before the unrolled tree of reduce5 runs once.
 * Pass 1 of 2: one partial sum per block (gridDim.x of them). BLOCK: a power of two, 64..1024. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif

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
	const long long stride = (long long)gridDim.x * (2 * BLOCK);
	long long i = (long long)blockIdx.x * (2 * BLOCK) + tid;

	int v = 0;
	while (i + BLOCK < n) {          /* both inputs of the pair exist */
		v += x[i] + x[i + BLOCK];
		i += stride;
	}
	if (i < n)                       /* the last pair may have only its first half */
		v += x[i];
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
