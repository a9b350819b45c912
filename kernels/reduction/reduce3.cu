/* reduce3: the first addition happens during the load: each thread reads two inputs a block apart
 * and stores their sum, so a block of BLOCK threads covers 2 * BLOCK inputs and no thread is idle in
 * the first step. Pass 1 of 2: one partial sum per 2 * BLOCK inputs. */
#include "common.cuh"

extern "C" __global__ void reduce3(const int *__restrict__ x, int *__restrict__ partials, long long n)
{
	extern __shared__ int sdata[];
	const unsigned int tid = threadIdx.x;
	const long long i = (long long)blockIdx.x * (2 * blockDim.x) + tid;

	int v = i < n ? x[i] : 0;
	if (i + blockDim.x < n)
		v += x[i + blockDim.x];
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
