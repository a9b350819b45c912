// attention/naive: the formula as three kernels, with the whole score matrix S in device memory.
//   attn_scores:  S = Q K^T * scale, FP32, one thread per score
//   attn_softmax: each row of S turned into probabilities P, in place (one block per row)
//   attn_pv:      O = P V, one thread per output value, rounded to bf16 at the end
// Q, K, V, O are [batch*heads][seq][dim] bf16; S is [batch*heads][seq][seq] FP32. Everything is
// computed in FP32 with expf, so this stage is also the lesson's reference.
#include <cuda_bf16.h>

#ifndef BLOCK
#define BLOCK 256
#endif

// S[bh][i][j] for j = this thread's column, i = blockIdx.y, bh = blockIdx.z. The threads of a warp
// share i (Q's row is read by all of them at once) and take neighbouring j: 32 different rows of K.
extern "C" __global__ void attn_scores(const __nv_bfloat16 *__restrict__ Q, const __nv_bfloat16 *__restrict__ K,
                                       float *__restrict__ S, int seq, int dim, float scale)
{
	const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
	const long long bh = blockIdx.z;
	if (j >= seq) return;
	const __nv_bfloat16 *q = Q + (bh * seq + i) * dim, *k = K + (bh * seq + j) * dim;
	float acc = 0.f;
	for (int d = 0; d < dim; d++) acc += __bfloat162float(q[d]) * __bfloat162float(k[d]);
	S[(bh * seq + i) * seq + j] = acc * scale;
}

// The block's maximum (is_max) or sum of v, in every thread. red holds BLOCK / 32 floats.
__device__ float block_combine(float v, float *red, bool is_max)
{
	for (int o = 16; o; o >>= 1) {
		const float w = __shfl_xor_sync(0xffffffffu, v, o);
		v = is_max ? fmaxf(v, w) : v + w;
	}
	__syncthreads();   // red may still be read from the previous call
	if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = v;
	__syncthreads();
	v = red[0];
	for (int w = 1; w < (int)(blockDim.x / 32); w++) v = is_max ? fmaxf(v, red[w]) : v + red[w];
	return v;
}

// One row of S per block: its maximum, the sum of exp(s - max), then P = exp(s - max) / sum in place.
// Three passes over the row, each from memory (a row of 4096 scores is 16 KB).
extern "C" __global__ void attn_softmax(float *__restrict__ S, int seq)
{
	__shared__ float red[BLOCK / 32];
	float *row = S + (long long)blockIdx.x * seq;
	float m = __int_as_float(0xff800000);   // -infinity
	for (int j = threadIdx.x; j < seq; j += blockDim.x) m = fmaxf(m, row[j]);
	m = block_combine(m, red, true);
	float s = 0.f;
	for (int j = threadIdx.x; j < seq; j += blockDim.x) s += expf(row[j] - m);
	s = block_combine(s, red, false);
	const float inv = 1.f / s;
	for (int j = threadIdx.x; j < seq; j += blockDim.x) row[j] = expf(row[j] - m) * inv;
}

// O[bh][i][d] = sum over j of P[bh][i][j] V[bh][j][d]: block (i, bh), thread d. The threads share
// P's row (one value read by all) and read a row of V together (neighbouring d, coalesced).
extern "C" __global__ void attn_pv(const float *__restrict__ P, const __nv_bfloat16 *__restrict__ V,
                                   __nv_bfloat16 *__restrict__ O, int seq, int dim)
{
	const int i = blockIdx.x, d = threadIdx.x;
	const long long bh = blockIdx.y;
	if (d >= dim) return;
	const float *p = P + (bh * seq + i) * seq;
	const __nv_bfloat16 *v = V + bh * seq * dim + d;
	float acc = 0.f;
	for (int j = 0; j < seq; j++) acc += p[j] * __bfloat162float(v[(long long)j * dim]);
	O[(bh * seq + i) * dim + d] = __float2bfloat16(acc);
}
