// Exercise: keep CHAINS loads in flight from one thread.
//
// One thread follows CHAINS independent chains (chain c starts at chain_start(c, mask); each step is
// i = chain_step(next[i], mask), and every index visited is added to the sum). The answer is the sum
// over all CHAINS chains of all the indices they visit, written to res[0].
//
// As it stands the kernel follows chain 0 only, so its sum is wrong whenever CHAINS > 1. Following
// the chains one after another would be right, but slow: each load waits for the one before it, so
// the thread would pay the full memory latency CHAINS * steps times (that is the chase stage with
// CHAINS set). The point of this stage is to pay it about steps times.
//
// What to do:
//   1. Keep the current index of every chain in a small array of CHAINS registers.
//   2. At each step, issue the loads of all the chains first, then take each chain's step and add
//      its new index to the sum. CHAINS is a compile-time constant (-D), so `#pragma unroll` keeps
//      the arrays in registers.
//
// Tunables (-D): CHAINS, the number of chains (1 to 32).
// Passing: the sum exact at every size, and at least 0.9x the speed of the stage's own kernel.
#include "chain.cuh"

extern "C" __global__ void chase_chains(const unsigned *next, unsigned long long *res, unsigned mask, long long steps)
{
	if (blockIdx.x != 0 || threadIdx.x != 0) return;
	unsigned long long sum = 0;

	// TODO(1): one current index per chain, chains 0 .. CHAINS-1, not chain 0 only.
	unsigned i = chain_start(0, mask);

	for (long long s = 0; s < steps; s++) {
		// TODO(2): load next[] for every chain before stepping any of them.
		i = chain_step(next[i], mask);
		sum += i;
	}
	res[0] = sum;
}
