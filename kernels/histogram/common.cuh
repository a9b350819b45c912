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
/* Every key of keys[0..n) that falls to this thread of a grid-stride walk, counted with count(key): in
 * each round the thread issues VEC 16-byte loads (4 keys each, BLOCK apart in a round) before it counts
 * any of their keys; the last n % 4 keys go to the first threads of block 0. keys comes from cudaMalloc
 * (256-byte aligned), so its first n / 4 * 4 keys can be read as uint4s. */
template <int BLOCK_, int VEC_, typename Count>
__device__ __forceinline__ void each_key(const unsigned *__restrict__ keys, long long n, Count count)
{
	const uint4 *k4 = reinterpret_cast<const uint4 *>(keys);
	const long long n4 = n >> 2, stride = (long long)gridDim.x * BLOCK_;
	long long i = (long long)blockIdx.x * BLOCK_ + threadIdx.x;
	for (; i + (VEC_ - 1) * stride < n4; i += VEC_ * stride) {
		uint4 v[VEC_];
#pragma unroll
		for (int u = 0; u < VEC_; u++)
			v[u] = k4[i + u * stride];
#pragma unroll
		for (int u = 0; u < VEC_; u++) {
			count(v[u].x);
			count(v[u].y);
			count(v[u].z);
			count(v[u].w);
		}
	}
	for (; i < n4; i += stride) {   /* fewer than VEC uint4s left for this thread */
		const uint4 v = k4[i];
		count(v.x);
		count(v.y);
		count(v.z);
		count(v.w);
	}
	if (blockIdx.x == 0 && threadIdx.x < (n & 3))
		count(keys[4 * n4 + threadIdx.x]);
}
#endif
