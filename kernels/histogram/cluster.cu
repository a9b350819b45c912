/* cluster (Hopper, sm_90 on): one histogram per thread-block cluster of CLUSTER blocks, spread over
 * their shared memories (distributed shared memory). Bin b lives in block b % CLUSTER of the cluster,
 * at slot b / CLUSTER, so each block holds ceil(bins / CLUSTER) counters: a histogram CLUSTER times
 * larger than one block's shared memory fits, and only one block in CLUSTER merges each bin into
 * global memory. The loads, the grid-stride loop and the run merging are coarse's; an add to a
 * bin of another block goes through the pointer cluster.map_shared_rank gives, over the network
 * between the SMs of the cluster. */
#include <cooperative_groups.h>
#include "common.cuh"

namespace cg = cooperative_groups;

#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef CLUSTER
#define CLUSTER 2
#endif
#ifndef VEC
#define VEC 2
#endif
#ifndef RUNS
#define RUNS 1
#endif

extern "C" __global__ void __cluster_dims__(CLUSTER, 1, 1)
hist_cluster(const unsigned *__restrict__ keys, unsigned *hist, long long n, int bins)
{
	extern __shared__ unsigned h[];
	cg::cluster_group cluster = cg::this_cluster();
	const int slots = (bins + CLUSTER - 1) / CLUSTER;
	for (int b = threadIdx.x; b < slots; b += BLOCK)
		h[b] = 0;
	cluster.sync();   /* every block's slice is zeroed before any block adds into it */

	/* Bin b is counter b / CLUSTER of block b % CLUSTER: a local atomic when that is this block, else
	 * one over the SM-to-SM network through the pointer map_shared_rank gives. */
	auto add = [&](unsigned b, unsigned c) { atomicAdd(cluster.map_shared_rank(h, b % CLUSTER) + b / CLUSTER, c); };
	bin_run r = { 0xffffffffu, 0 };
	auto count = [&](unsigned key) {
		const unsigned b = bin_of(key, bins);
		if (RUNS) run_add(r, b, add);
		else add(b, 1u);
	};
	each_key<BLOCK, VEC>(keys, n, count);
	if (RUNS && r.cnt)
		add(r.cur, r.cnt);

	/* Every add of every block of the cluster is done before a slice is read, and no block leaves
	 * (its shared memory with it) while another may still add into it. */
	cluster.sync();
	const unsigned rank = cluster.block_rank();
	for (int s = threadIdx.x; s < slots; s += BLOCK) {
		const unsigned c = h[s];
		const int b = s * CLUSTER + (int)rank;
		if (c && b < bins)
			atomicAdd(&hist[b], c);
	}
}
