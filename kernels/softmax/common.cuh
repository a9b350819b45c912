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

// Online softmax: (m, s) is the maximum of the values seen so far and the sum of exp(value - m).
// Taking in one more value v: when v is a new maximum, the sum so far is rescaled to it.
__device__ __forceinline__ void online_add(float &m, float &s, float v)
{
	if (v > m) {
		s = s * expf(m - v) + 1.0f;   // exp(-inf) = 0 for the first value
		m = v;
	} else {
		s += expf(v - m);
	}
}

// Merges the pair (m2, s2), from other values, into (m, s): both sums rescaled to the larger maximum.
__device__ __forceinline__ void online_merge(float &m, float &s, float m2, float s2)
{
	const float mx = fmaxf(m, m2);
	if (mx == NEG_INF) return;   // neither has seen a value (and -inf - -inf would be NaN)
	s = s * expf(m - mx) + s2 * expf(m2 - mx);
	m = mx;
}

__device__ __forceinline__ void warp_online(float &m, float &s)
{
	for (int o = 16; o > 0; o >>= 1)
		online_merge(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
}

// (m, s) merged over the block; every thread gets the row's pair.
__device__ __forceinline__ void block_online(float &m, float &s)
{
	__shared__ float pm[32], ps[32];
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	warp_online(m, s);
	__syncthreads();
	if (lane == 0) pm[warp] = m, ps[warp] = s;
	__syncthreads();
	m = lane < BLOCK / 32 ? pm[lane] : NEG_INF;
	s = lane < BLOCK / 32 ? ps[lane] : 0.0f;
	warp_online(m, s);
}
#endif
