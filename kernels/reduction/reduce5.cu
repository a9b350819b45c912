/* reduce5: reduce4 with the block size fixed at compile time (-DBLOCK=...): every `if (BLOCK >= ...)`
 * below is decided by the compiler, so the tree has no loop, no loop counter and no dead steps.
 * (Harris does this with a C++ template and a switch over block sizes; a -D define does the same.)
 * Pass 1 of 2: one partial sum per 2 * BLOCK inputs. BLOCK: a power of two, 64..1024. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif

/* See reduce4.cu: one warp folds the last 64 values, with __syncwarp between read and write. */
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

extern "C" __global__ void reduce5(const int *__restrict__ x, int *__restrict__ partials, long long n)
{
	__shared__ int sdata[BLOCK];
	const unsigned int tid = threadIdx.x;
	const long long i = (long long)blockIdx.x * (2 * BLOCK) + tid;

	int v = i < n ? x[i] : 0;
	if (i + BLOCK < n)
		v += x[i + BLOCK];
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
