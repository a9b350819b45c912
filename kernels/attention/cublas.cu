// attention/cublas: the softmax between the two cuBLAS products. S (FP32, the scale already applied by
// the first product's alpha) in, P (bf16, the second product's A operand) out, one block per row.
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

// Row blockIdx.x of S: its maximum m and the sum of exp(s - m) in one pass (online: the sum is
// rescaled when m grows), then P = exp(s - m) / sum as bf16. The second read of the row (16 KB at seq
// 4096) comes from the cache.
extern "C" __global__ void __launch_bounds__(BLOCK) softmax_bf16(const float *__restrict__ S, __nv_bfloat16 *__restrict__ P, int seq)
{
	__shared__ float red[BLOCK / 32];
	const float *row = S + (long long)blockIdx.x * seq;
	__nv_bfloat16 *out = P + (long long)blockIdx.x * seq;
	float m = __int_as_float(0xff800000), s = 0.f;
	for (int j = threadIdx.x; j < seq; j += BLOCK) {
		const float x = row[j];
		if (x > m) { s *= __expf(m - x); m = x; }
		s += __expf(x - m);
	}
	const float bm = block_combine(m, red, true);
	s = block_combine(m == bm ? s : s * __expf(m - bm), red, false);
	const float inv = 1.f / s;
	for (int j = threadIdx.x; j < seq; j += BLOCK) out[j] = __float2bfloat16(__expf(row[j] - bm) * inv);
}
