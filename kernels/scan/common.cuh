/* Shared by the scan stages: the warp and block scans built from __shfl_up_sync, the loads and
 * stores of a thread's run of items, and the two helper passes of the three-kernel stages
 * (scan_offsets: one block scans the per-tile sums in place; add_offsets: adds tile t's offset to
 * every output of tile t). Included by each stage's file, so each module has its own copy.
 * Every buffer the engine hands a kernel starts on a 256-byte boundary, so y + 4k is an int4 address. */
#ifndef SCAN_COMMON_CUH
#define SCAN_COMMON_CUH

/* Inclusive scan over the 32 lanes of a warp: lane l gets the sum of lanes 0..l. Five steps: at step
 * d each lane adds the value the lane d below it had, if there is such a lane. */
__device__ __forceinline__ int warp_inclusive_scan(int v)
{
	const int lane = threadIdx.x & 31;
#pragma unroll
	for (int d = 1; d < 32; d <<= 1) {
		const int below = __shfl_up_sync(0xffffffffu, v, d);
		if (lane >= d)
			v += below;
	}
	return v;
}

/* Sum over the 32 lanes of a warp, in every lane. */
__device__ __forceinline__ int warp_all_sum(int v)
{
#pragma unroll
	for (int d = 16; d > 0; d >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, d);
	return v;
}

/* Exclusive scan of one value per thread over the whole block (blockDim.x a multiple of 32, up to
 * 1024): returns the sum of the values of the threads before this one, and sets total to the block's
 * sum in every thread. warp_tot is shared int[32]; the caller syncs before using it again. */
__device__ __forceinline__ int block_exclusive_scan(int v, int *warp_tot, int &total)
{
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
	const int inc = warp_inclusive_scan(v);
	if (lane == 31)
		warp_tot[warp] = inc;
	__syncthreads();
	if (warp == 0) {
		int w = lane < nwarps ? warp_tot[lane] : 0;
		w = warp_inclusive_scan(w);
		if (lane < nwarps)
			warp_tot[lane] = w;   /* now: the inclusive sum up to and including warp `lane` */
	}
	__syncthreads();
	total = warp_tot[nwarps - 1];
	return (warp ? warp_tot[warp - 1] : 0) + inc - v;
}

/* The RUN consecutive inputs x[first .. first + RUN) into v, as RUN / 4 int4 loads when all
 * lie below n (first is a multiple of 4); zeros past n. */
template <int RUN>
__device__ __forceinline__ void load_run(const int *__restrict__ x, long long first, long long n, int (&v)[RUN])
{
	if (first + RUN <= n) {
		const int4 *p = reinterpret_cast<const int4 *>(x + first);
#pragma unroll
		for (int k = 0; k < RUN / 4; k++) {
			const int4 q = p[k];
			v[4 * k] = q.x;
			v[4 * k + 1] = q.y;
			v[4 * k + 2] = q.z;
			v[4 * k + 3] = q.w;
		}
	} else {
#pragma unroll
		for (int k = 0; k < RUN; k++)
			v[k] = first + k < n ? x[first + k] : 0;
	}
}

/* v into y[first .. first + RUN), only the elements below n. */
template <int RUN>
__device__ __forceinline__ void store_run(int *__restrict__ y, long long first, long long n, const int (&v)[RUN])
{
	if (first + RUN <= n) {
		int4 *p = reinterpret_cast<int4 *>(y + first);
#pragma unroll
		for (int k = 0; k < RUN / 4; k++)
			p[k] = make_int4(v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]);
	} else {
#pragma unroll
		for (int k = 0; k < RUN; k++)
			if (first + k < n)
				y[first + k] = v[k];
	}
}

/* A thread's run in registers turned into its exclusive scan (v[k] = v[0] + ... + v[k-1]); returns
 * the run's total. */
template <int RUN>
__device__ __forceinline__ int run_exclusive(int (&v)[RUN])
{
	int s = 0;
#pragma unroll
	for (int k = 0; k < RUN; k++) {
		const int a = v[k];
		v[k] = s;
		s += a;
	}
	return s;
}

/* One block (blockDim.x a multiple of 32, up to 1024) turns sums[0 .. m) into its exclusive scan, in
 * place: sums[t] becomes the sum of sums[0 .. t), the offset of tile t. Thread j owns a contiguous
 * run of `per` entries (a multiple of 4, so its int4 reads are aligned): it adds its run, the block
 * scans the run totals, and the thread walks its run again writing the running offset. */
extern "C" __global__ void scan_offsets(int *__restrict__ sums, long long m)
{
	__shared__ int warp_tot[32];
	const long long nt = blockDim.x;
	const long long per = ((m + nt - 1) / nt + 3) & ~3LL;
	const long long lo = min(m, (long long)threadIdx.x * per), hi = min(m, lo + per);
	int s = 0;
	long long i = lo;
	for (; i + 4 <= hi; i += 4) {
		const int4 q = *reinterpret_cast<const int4 *>(sums + i);
		s += (q.x + q.y) + (q.z + q.w);
	}
	for (; i < hi; i++)
		s += sums[i];
	int total;
	int run = block_exclusive_scan(s, warp_tot, total);
	for (i = lo; i + 4 <= hi; i += 4) {
		int4 q = *reinterpret_cast<int4 *>(sums + i);
		const int a = q.x, b = q.y, c = q.z, d = q.w;
		q.x = run;
		q.y = run + a;
		q.z = run + a + b;
		q.w = run + a + b + c;
		run += a + b + c + d;
		*reinterpret_cast<int4 *>(sums + i) = q;
	}
	for (; i < hi; i++) {
		const int t = sums[i];
		sums[i] = run;
		run += t;
	}
}

/* y[i] += offsets[i / tile] for every i < n (tile a power of two, a multiple of 4). Thread j of the
 * grid takes the four elements 4j .. 4j + 3 as one int4 (they lie in one tile). */
extern "C" __global__ void add_offsets(int *__restrict__ y, const int *__restrict__ offsets, long long n, int tile)
{
	const int shift = __ffs(tile) - 1;
	const long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x, first = 4 * j;
	if (first >= n)
		return;
	const int off = offsets[first >> shift];
	if (first + 4 <= n) {
		int4 *p = reinterpret_cast<int4 *>(y + first);
		int4 q = *p;
		q.x += off;
		q.y += off;
		q.z += off;
		q.w += off;
		*p = q;
	} else {
		for (long long i = first; i < n; i++)
			y[i] += off;
	}
}
#endif
