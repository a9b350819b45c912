/* warp: shared's private histogram, with the lanes of a warp that hold the same bin adding together:
 * __match_any_sync gives each lane the mask of lanes with its bin, and the lowest of them adds the
 * mask's population in one shared atomic (one atomic per distinct bin per warp, not per key). */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif

extern "C" __global__ void hist_warp(const unsigned *__restrict__ keys, unsigned *hist, long long n, int bins)
{
	extern __shared__ unsigned h[];
	private_zero(h, bins);

	/* Every lane runs all ITEMS rounds, with or without a key, so that all 32 reach each match. */
	const long long first = (long long)blockIdx.x * (BLOCK * ITEMS) + threadIdx.x;
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const long long i = first + (long long)k * BLOCK;
		const bool valid = i < n;
		add_key<1>(h, valid ? bin_of(keys[i], bins) : 0u, valid);
	}

	private_merge(hist, h, bins, 0, 1);
}
