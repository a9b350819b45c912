/* reduce4: as reduce3, but the last six steps (64 values down to 1) are done by one warp without
 * __syncthreads. Pass 1 of 2: one partial sum per 2 * BLOCK inputs. Needs BLOCK >= 64. */
#include "common.cuh"

/* The classic version adds through a volatile pointer with no barrier at all, trusting that the 32
 * threads of a warp run in lock step. Since Volta each thread has its own program counter and the
 * scheduler may interleave them, so a thread can read its neighbour's slot before or after the
 * neighbour has updated it. Here each step reads, waits for the warp (__syncwarp), writes, and
 * waits again: __syncwarp also orders the shared-memory accesses, so volatile is not needed. */
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

	for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
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
