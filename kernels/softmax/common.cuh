// Shared by the softmax lesson's kernels: reductions over a warp and over a block, for the maximum,
// the sum, and the (maximum, sum) pairs of the online softmax.
//
// Every stage computes y[r][j] = exp(x[r][j] - m_r) / s_r for each row r of a rows x cols matrix,
// with m_r the row's maximum and s_r = sum over j of exp(x[r][j] - m_r). Subtracting the maximum
// changes nothing mathematically (it cancels between numerator and denominator) but keeps every
// exponential at most 1, so a row of large scores cannot overflow to infinity.
#ifndef SOFTMAX_COMMON_CUH
#define SOFTMAX_COMMON_CUH
#ifndef BLOCK
#define BLOCK 256
#endif
#define NEG_INF (-__int_as_float(0x7f800000))   // -infinity, without <math.h> (NVRTC has none)

// The largest of the 32 lanes' values; every lane gets it.
__device__ __forceinline__ float warp_max(float v)
{
	for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
	return v;
}

// The sum of the 32 lanes' values; every lane gets it.
__device__ __forceinline__ float warp_sum(float v)
{
	for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

// The largest value over the block (BLOCK threads); every thread gets it. Each warp reduces its own,
// the warps' results meet in shared memory, and every warp then reduces those (no third barrier).
__device__ __forceinline__ float block_max(float v)
{
	__shared__ float part[32];
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	v = warp_max(v);
	__syncthreads();   // part may still be read by a previous call
	if (lane == 0) part[warp] = v;
	__syncthreads();
	return warp_max(lane < BLOCK / 32 ? part[lane] : NEG_INF);
}

__device__ __forceinline__ float block_sum(float v)
{
	__shared__ float part[32];
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	v = warp_sum(v);
	__syncthreads();
	if (lane == 0) part[warp] = v;
	__syncthreads();
	return warp_sum(lane < BLOCK / 32 ? part[lane] : 0.0f);
}

// Online softmax: (m, s) is the largest value seen so far and the sum of exp(value - m) over the
// values seen. online_add4 takes in four more values at once: their maximum, the new m, and the sum
// so far rescaled to it (multiplied by exp(m_old - m_new), 1 when the maximum did not grow): five
// exponentials for four values, and no branch. A value NEG_INF (padding past the row's end) adds 0.
__device__ __forceinline__ void online_add4(float &m, float &s, float v0, float v1, float v2, float v3)
{
	const float mn = fmaxf(fmaxf(m, fmaxf(v0, v1)), fmaxf(v2, v3));
	if (mn == NEG_INF) return;   // nothing but padding so far (and -inf - -inf would be NaN)
	s = s * expf(m - mn) + (expf(v0 - mn) + expf(v1 - mn)) + (expf(v2 - mn) + expf(v3 - mn));
	m = mn;
}

// The row's (m, s) from the block's pairs: the largest m first (a max reduction), then every thread
// rescales its sum to it and the sums are added (a sum reduction). Every thread gets the row's pair.
__device__ __forceinline__ void block_online(float &m, float &s)
{
	const float mx = block_max(m);
	s = block_sum(m == NEG_INF ? 0.0f : s * expf(m - mx));
	m = mx;
}

// This thread's (m, s) over its values of a row of cols: values tid, tid + BLOCK, tid + 2 BLOCK, ...
// taken four at a time (the four loads issued together), padded with NEG_INF past the end.
__device__ __forceinline__ void thread_online(const float *__restrict__ row, int cols, float &m, float &s)
{
	m = NEG_INF, s = 0.0f;
	for (int j = threadIdx.x; j < cols; j += 4 * BLOCK) {
		float v[4];
#pragma unroll
		for (int t = 0; t < 4; t++) v[t] = j + t * BLOCK < cols ? row[j + t * BLOCK] : NEG_INF;
		online_add4(m, s, v[0], v[1], v[2], v[3]);
	}
}
#endif
