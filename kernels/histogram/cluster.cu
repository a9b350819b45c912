/* cluster (Hopper, sm_90 on): one histogram per thread-block cluster of CLUSTER blocks, spread over
 * their shared memories (distributed shared memory). Bin b lives in block b % CLUSTER of the cluster,
 * at slot b / CLUSTER, so each block holds ceil(bins / CLUSTER) counters: a histogram CLUSTER times
 * larger than one block's shared memory fits, and only one block in CLUSTER merges each bin into
 * global memory. The loads, the grid-stride loop and the warp aggregation are coarse's; an add to a
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
#ifndef AGG
#define AGG 1
#endif

/* The key's bin, added in the block of the cluster that holds it. With AGG the lanes match on the bin
 * itself (not on the slot, which bins of other blocks share), and the lowest lane of each group adds
 * the group's size there. Every lane of the warp calls it together. */
__device__ __forceinline__ void add_cluster(cg::cluster_group &cluster, unsigned *h, unsigned b, bool valid)
{
	unsigned count = 1;
	if (AGG) {
		const unsigned peers = __match_any_sync(0xffffffffu, valid ? b : 0xffffffffu);
		valid = valid && (threadIdx.x & 31) == (unsigned)(__ffs(peers) - 1);
		count = (unsigned)__popc(peers);
	}
	if (valid)
		atomicAdd(cluster.map_shared_rank(h, b % CLUSTER) + b / CLUSTER, count);
}

extern "C" __global__ void __cluster_dims__(CLUSTER, 1, 1)
hist_cluster(const unsigned *__restrict__ keys, unsigned *hist, long long n, int bins)
{
	extern __shared__ unsigned h[];
	cg::cluster_group cluster = cg::this_cluster();
	const int slots = (bins + CLUSTER - 1) / CLUSTER;
	for (int b = threadIdx.x; b < slots; b += BLOCK)
		h[b] = 0;
	cluster.sync();   /* every block's slice is zeroed before any block adds into it */

	const uint4 *k4 = reinterpret_cast<const uint4 *>(keys);
	const long long n4 = n >> 2, stride = (long long)gridDim.x * BLOCK;
	const unsigned lane = threadIdx.x & 31;
	for (long long w = (long long)blockIdx.x * BLOCK + (threadIdx.x - lane); w < n4; w += stride) {
		const long long i = w + lane;
		const bool valid = i < n4;
		const uint4 v = valid ? k4[i] : make_uint4(0, 0, 0, 0);
		add_cluster(cluster, h, bin_of(v.x, bins), valid);
		add_cluster(cluster, h, bin_of(v.y, bins), valid);
		add_cluster(cluster, h, bin_of(v.z, bins), valid);
		add_cluster(cluster, h, bin_of(v.w, bins), valid);
	}
	if (blockIdx.x == 0 && threadIdx.x < 32) {
		const long long i = 4 * n4 + lane;
		const bool valid = i < n;
		add_cluster(cluster, h, valid ? bin_of(keys[i], bins) : 0u, valid);
	}

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
