// The same chase, over a copy of the chain in shared memory. The block first copies the W = mask + 1
// elements of next[] into shared memory (all its threads, coalesced), then thread 0 chases exactly as
// the chase stage does: one dependent load at a time, each now served by shared memory.
#include "chain.cuh"

extern "C" __global__ void chase_shared(const unsigned *next, unsigned long long *res, unsigned mask, long long steps)
{
	extern __shared__ unsigned s_next[];
	const unsigned long long w = (unsigned long long)mask + 1;
	for (unsigned long long k = threadIdx.x; k < w; k += blockDim.x) s_next[k] = next[k];
	__syncthreads();
	if (threadIdx.x != 0) return;
	unsigned long long sum = 0;
	for (unsigned c = 0; c < CHAINS; c++) {
		unsigned i = chain_start(c, mask);
		for (long long s = 0; s < steps; s++) {
			i = chain_step(s_next[i], mask);
			sum += i;
		}
	}
	res[0] = sum;
}
