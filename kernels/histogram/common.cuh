/* Shared by the histogram stages: which bin a key falls in, and the block-private histogram's start
 * and end. Included by each stage's file, so each module has its own copy.
 * Keys are u32 in [0, 65536); bins even bins split that range, so key k lands in bin k * bins / 65536
 * (k * bins < 2^32 for bins <= 65536), which is how cub::DeviceHistogram::HistogramEven bins an
 * integer sample with levels 0 and 65536. */
#ifndef HISTOGRAM_COMMON_CUH
#define HISTOGRAM_COMMON_CUH

__device__ __forceinline__ unsigned bin_of(unsigned key, unsigned bins) { return (key * bins) >> 16; }

/* Every thread of the block zeroes its share of the count counters at h, then the block waits. */
__device__ __forceinline__ void private_zero(unsigned *h, int count)
{
	for (int b = threadIdx.x; b < count; b += blockDim.x)
		h[b] = 0;
	__syncthreads();
}

/* After the block's last add (the barrier waits for it): one global atomicAdd per bin that the block
 * saw at least once; hist[first + b * step] receives h[b]. */
__device__ __forceinline__ void private_merge(unsigned *hist, const unsigned *h, int count, int first, int step)
{
	__syncthreads();
	for (int b = threadIdx.x; b < count; b += blockDim.x) {
		const unsigned c = h[b];
		if (c)
			atomicAdd(&hist[first + b * step], c);
	}
}

/* One key per lane of a full warp (valid: whether this lane has one). With WARP_AGG the lanes holding the
 * same bin find each other (__match_any_sync) and the lowest of them adds their number in one atomic;
 * without it each lane adds 1. Every lane of the warp must call it together. */
template <int WARP_AGG>
__device__ __forceinline__ void add_key(unsigned *h, unsigned b, bool valid)
{
	if (WARP_AGG) {
		const unsigned peers = __match_any_sync(0xffffffffu, valid ? b : 0xffffffffu);
		if (valid && (threadIdx.x & 31) == (unsigned)(__ffs(peers) - 1))
			atomicAdd(&h[b], (unsigned)__popc(peers));
	} else if (valid) {
		atomicAdd(&h[b], 1u);
	}
}
/* Per-thread run merging: a thread adds its keys one after another, and a key in the same bin as the
 * one before it only grows a count held in a register; the count goes to the histogram with one
 * atomic when the bin changes (and at the end, flush). Keys that repeat in a thread's sequence (a hot
 * bin, or sorted or blocky data) cost one atomic per run instead of one per key; uniform keys cost a
 * compare each. cur starts at 0xffffffff, cnt at 0. */
struct bin_run {
	unsigned cur, cnt;
};

template <typename Add>
__device__ __forceinline__ void run_add(bin_run &r, unsigned b, Add add)
{
	if (b == r.cur) {
		r.cnt++;
	} else {
		if (r.cnt)
			add(r.cur, r.cnt);
		r.cur = b;
		r.cnt = 1;
	}
}
#endif
