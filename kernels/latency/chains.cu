// Instruction-level parallelism: one thread follows CHAINS independent chains side by side. At each
// step it issues the loads of all CHAINS chains before it uses any of them, so CHAINS loads are in
// flight together and their latencies overlap: about the time of one chain for CHAINS times the work.
#include "chain.cuh"

extern "C" __global__ void chase_chains(const unsigned *next, unsigned long long *res, unsigned mask, long long steps)
{
	if (blockIdx.x != 0 || threadIdx.x != 0) return;
	unsigned i[CHAINS];
	unsigned long long sum = 0;
#pragma unroll
	for (int c = 0; c < CHAINS; c++) i[c] = chain_start(c, mask);
	for (long long s = 0; s < steps; s++) {
		unsigned v[CHAINS];
#pragma unroll
		for (int c = 0; c < CHAINS; c++) v[c] = next[i[c]];   // CHAINS independent loads leave
#pragma unroll
		for (int c = 0; c < CHAINS; c++) {                     // then each chain takes its step
			i[c] = chain_step(v[c], mask);
			sum += i[c];
		}
	}
	res[0] = sum;
}
