/* coarse: a grid sized to the GPU (BLOCKS_PER_SM blocks per SM) instead of one block per 2048 keys.
 * Each thread walks the keys four at a time (one 16-byte load, a uint4) in a grid-stride loop, so a
 * block counts hundreds of thousands of keys before its one merge. AGG 1 keeps the warp aggregation of
 * the previous stage; AGG 0 adds each key with its own shared atomic. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef AGG
#define AGG 1
#endif

extern "C" __global__ void hist_coarse(const unsigned *__restrict__ keys, unsigned *hist, long long n, int bins)
{
	extern __shared__ unsigned h[];
	private_zero(h, bins);

	/* The keys come from cudaMalloc (256-byte aligned): the first n / 4 * 4 are read as uint4s. The
	 * loop runs on the warp's first index, so the lanes of a warp stay together for the matches. */
	const uint4 *k4 = reinterpret_cast<const uint4 *>(keys);
	const long long n4 = n >> 2, stride = (long long)gridDim.x * BLOCK;
	const unsigned lane = threadIdx.x & 31;
	for (long long w = (long long)blockIdx.x * BLOCK + (threadIdx.x - lane); w < n4; w += stride) {
		const long long i = w + lane;
		const bool valid = i < n4;
		const uint4 v = valid ? k4[i] : make_uint4(0, 0, 0, 0);
		add_key<AGG>(h, bin_of(v.x, bins), valid);
		add_key<AGG>(h, bin_of(v.y, bins), valid);
		add_key<AGG>(h, bin_of(v.z, bins), valid);
		add_key<AGG>(h, bin_of(v.w, bins), valid);
	}
	/* The last n % 4 keys: the first warp of block 0, one key per lane. */
	if (blockIdx.x == 0 && threadIdx.x < 32) {
		const long long i = 4 * n4 + lane;
		const bool valid = i < n;
		add_key<AGG>(h, valid ? bin_of(keys[i], bins) : 0u, valid);
	}

	private_merge(hist, h, bins, 0, 1);
}
