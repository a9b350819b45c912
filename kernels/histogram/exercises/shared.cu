/* Exercise: privatisation. Each block should count its BLOCK * ITEMS keys into a histogram of its own
 * in shared memory and then add that into the global histogram, one atomicAdd per bin, instead of one
 * global atomicAdd per key. As written, the counting is there but the private histogram starts with
 * whatever the shared memory held, and nothing ever reaches hist: the check fails. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif

extern "C" __global__ void hist_shared(const unsigned *__restrict__ keys, unsigned *hist, long long n, int bins)
{
	extern __shared__ unsigned h[];   /* bins counters: 4 * bins bytes of dynamic shared memory */

	/* TODO: set the bins counters of h to 0 (the block's threads share the work), then make every
	 * thread wait until all of them are zero. */

	const long long first = (long long)blockIdx.x * (BLOCK * ITEMS) + threadIdx.x;
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const long long i = first + (long long)k * BLOCK;
		if (i < n)
			atomicAdd(&h[bin_of(keys[i], bins)], 1u);
	}

	/* TODO: once every thread of the block has added its keys, add each counter of h into hist
	 * (skipping the zeros saves atomics). */
}
