// Exercise: the softmax between the two cuBLAS products (attention/cublas).
// S holds the scaled scores of one query per row (FP32, seq per row); write P = softmax(row) as bf16.
// One block of BLOCK threads per row. The kernel reads each score with one pass for the statistics
// (the maximum m and the sum of exp(s - m)) and a second pass to write P.
//
// As it stands the statistics pass is wrong: a thread's running sum s is taken relative to the
// maximum it had seen so far, and nothing fixes it when that maximum grows. The same goes for the
// threads' sums when the block combines them. Fix both (TODO below) - this is the rescale on which
// FlashAttention's whole loop rests.
#include <cuda_bf16.h>

#ifndef BLOCK
#define BLOCK 256
#endif

// The block's maximum (is_max) or sum of v, in every thread.
__device__ float block_combine(float v, float *red, bool is_max)
{
	for (int o = 16; o; o >>= 1) {
		const float w = __shfl_xor_sync(0xffffffffu, v, o);
		v = is_max ? fmaxf(v, w) : v + w;
	}
	__syncthreads();
	if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = v;
	__syncthreads();
	v = red[0];
	for (int w = 1; w < BLOCK / 32; w++) v = is_max ? fmaxf(v, red[w]) : v + red[w];
	return v;
}

extern "C" __global__ void __launch_bounds__(BLOCK) softmax_bf16(const float *__restrict__ S, __nv_bfloat16 *__restrict__ P, int seq)
{
	__shared__ float red[BLOCK / 32];
	const float *row = S + (long long)blockIdx.x * seq;
	__nv_bfloat16 *out = P + (long long)blockIdx.x * seq;
	float m = __int_as_float(0xff800000), s = 0.f;   // m starts at -infinity
	for (int j = threadIdx.x; j < seq; j += BLOCK) {
		const float x = row[j];
		if (x > m) {
			// TODO: s holds sum(exp(v - m)) for the old m; make it relative to the new maximum x.
			m = x;
		}
		s += __expf(x - m);
	}
	const float bm = block_combine(m, red, true);
	// TODO: each thread's s is relative to its own m; the block's sum must be relative to bm.
	s = block_combine(s, red, false);
	const float inv = 1.f / s;
	for (int j = threadIdx.x; j < seq; j += BLOCK) out[j] = __float2bfloat16(__expf(row[j] - bm) * inv);
}
