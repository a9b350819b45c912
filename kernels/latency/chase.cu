// One thread, one dependent load at a time: the load's address is the previous load's value, so the
// thread waits out the whole latency of wherever the data live (L1, L2 or DRAM) on every step.
// With CHAINS > 1 the thread follows the chains one after another, still one load in flight.
#include "chain.cuh"

extern "C" __global__ void chase(const unsigned *next, unsigned long long *res, unsigned mask, long long steps)
{
	if (blockIdx.x != 0 || threadIdx.x != 0) return;
	unsigned long long sum = 0;
	for (unsigned c = 0; c < CHAINS; c++) {
		unsigned i = chain_start(c, mask);
		for (long long s = 0; s < steps; s++) {
			i = chain_step(next[i], mask);   // the next address waits for this load
			sum += i;
		}
	}
	res[0] = sum;
}
