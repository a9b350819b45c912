/* Shared by the two-pass reduction stages: the second pass, which folds the per-block partial sums
 * of the first pass into the final one. Included by each stage's file, so each module has its own copy. */
#ifndef REDUCTION_COMMON_CUH
#define REDUCTION_COMMON_CUH

/* Sum of the 32 values of a warp; the result is in lane 0. */
__device__ __forceinline__ int finish_warp_sum(int v)
{
	for (int offset = 16; offset > 0; offset >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, offset);
	return v;
}

/* One block (any multiple of 32 threads up to 1024) adds count partial sums and stores the total in
 * *sum. The partials come from a cudaMalloc'd scratch buffer, so they are 16-byte aligned: the body
 * is read as int4, four loads in flight per thread, and the last count % 4 values one by one. */
extern "C" __global__ void reduce_partials(const int *__restrict__ partials, int *__restrict__ sum,
                                           long long count)
{
	__shared__ int warp_sums[32];
	const int4 *p4 = reinterpret_cast<const int4 *>(partials);
	const long long n4 = count >> 2;
	const long long t = threadIdx.x, nt = blockDim.x;
	int v = 0;

	long long i = t;
	for (; i + 3 * nt < n4; i += 4 * nt) {
		int4 a = p4[i], b = p4[i + nt], c = p4[i + 2 * nt], d = p4[i + 3 * nt];
		v += (a.x + a.y + a.z + a.w) + (b.x + b.y + b.z + b.w)
		   + (c.x + c.y + c.z + c.w) + (d.x + d.y + d.z + d.w);
	}
	for (; i < n4; i += nt) {
		int4 a = p4[i];
		v += a.x + a.y + a.z + a.w;
	}
	for (long long j = 4 * n4 + t; j < count; j += nt)
		v += partials[j];

	v = finish_warp_sum(v);
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	if (lane == 0)
		warp_sums[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0;
		v = finish_warp_sum(v);
		if (lane == 0)
			*sum = v;
	}
}
#endif
