/* coarse: a grid sized to the GPU (BLOCKS_PER_SM blocks per SM) instead of one block per 2048 keys.
 * Each thread walks the keys in a grid-stride loop, VEC 16-byte loads (4 keys each) issued before any
 * of them is counted, so that a thread has VEC loads in flight; then it adds its 4 * VEC keys, each
 * with its own shared atomic (RUNS 0), or merging runs of the same bin in a register first (RUNS 1,
 * common.cuh): no match across the warp. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef VEC
#define VEC 2
#endif
#ifndef RUNS
#define RUNS 0
#endif

extern "C" __global__ void hist_coarse(const unsigned *__restrict__ keys, unsigned *hist, long long n, int bins)
{
	extern __shared__ unsigned h[];
	private_zero(h, bins);

	auto add = [&](unsigned b, unsigned c) { atomicAdd(&h[b], c); };
	bin_run r = { 0xffffffffu, 0 };
	auto count = [&](unsigned key) {
		const unsigned b = bin_of(key, bins);
		if (RUNS) run_add(r, b, add);
		else atomicAdd(&h[b], 1u);
	};

	each_key<BLOCK, VEC>(keys, n, count);
	if (RUNS && r.cnt)
		add(r.cur, r.cnt);

	private_merge(hist, h, bins, 0, 1);
}
