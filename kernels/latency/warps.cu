// Thread-level parallelism: CHAINS threads, each following its own chain (thread c takes chain c).
// Every thread still has one load in flight, but there are as many threads as the GPU holds, so the
// memory system sees hundreds of thousands of loads at once. The totals meet in one 64-bit counter:
// a sum over the warp with shuffles, then one atomicAdd per warp (the launch zeroes res first).
#include "chain.cuh"

extern "C" __global__ void chase_warps(const unsigned *next, unsigned long long *res, unsigned mask, long long steps)
{
	const long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	unsigned long long sum = 0;
	if (c < CHAINS) {
		unsigned i = chain_start((unsigned)c, mask);
		for (long long s = 0; s < steps; s++) {
			i = chain_step(next[i], mask);
			sum += i;
		}
	}
	for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
	if ((threadIdx.x & 31) == 0 && sum != 0) atomicAdd(res, sum);
}
