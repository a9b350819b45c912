/* shared: privatisation. Each block counts its BLOCK * ITEMS keys into a histogram of its own in
 * shared memory (zeroed first), then adds it to the global one: one global atomic per bin the block
 * saw, instead of one per key. Dynamic shared memory: 4 * bins bytes. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif

extern "C" __global__ void hist_shared(const unsigned *__restrict__ keys, unsigned *hist, long long n, int bins)
{
	extern __shared__ unsigned h[];
	private_zero(h, bins);

	/* Key k of the thread sits BLOCK keys after its key k - 1: a warp reads 32 consecutive keys. */
	const long long first = (long long)blockIdx.x * (BLOCK * ITEMS) + threadIdx.x;
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const long long i = first + (long long)k * BLOCK;
		if (i < n)
			atomicAdd(&h[bin_of(keys[i], bins)], 1u);
	}

	private_merge(hist, h, bins, 0, 1);
}
