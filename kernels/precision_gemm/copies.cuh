// The narrow copies of the lesson's A and B, made once.
//
// The tensor-core stages read A (m x k) and B (k x n) in their own formats, converted ahead of time as a
// real program converts weights once, not in the kernel that multiplies them. Hopper's wgmma reads
// TF32 and FP8 operands only k-major (each row of the operand in shared memory runs along k), so the
// copies of B are stored transposed, n x k: row j of a B copy is column j of B. A's copies keep A's
// layout, which is already k-major. Every copy of an element v is:
//   At, Bt: TF32 kept in an FP32 word, rounded to nearest (cvt.rna.tf32.f32; 11 significant bits);
//   Ab, Bb: BF16, rounded to nearest (8 significant bits, FP32's range);
//   Ah, Bh: FP16, rounded to nearest (11 significant bits, largest finite value 65504);
//   A8, B8: FP8 e4m3 of v * 448 / amax, amax the largest |v| of the row of A (the column of B), so
//           that the row's largest value lands on e4m3's largest, 448; sa[i] (sb[j]) = amax / 448
//           undoes it (4 significant bits);
//   Ai8, Bi8: INT8 of round(v * 127 / amax), the same amax, so the row's largest value becomes +-127;
//           sa8[i] (sb8[j]) = amax / 127 undoes it, and C[i][j] = sa8[i] * sb8[j] * (Ai8 . Bi8^T)[i][j]
//           with the sum exact in int32 (symmetric per-channel quantisation, as INT8 inference does).
// It runs as the second launch of the reference stage, which every checked run executes first on
// freshly filled inputs, and converts only then: ready[0] is set by the last block to finish and the
// buffers, ready included, are filled afresh whenever the inputs are. After that it is one near-empty
// launch. One warp converts one row of A, or one column of B, at a time.
#ifndef PRECISION_GEMM_COPIES_CUH
#define PRECISION_GEMM_COPIES_CUH
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

__device__ __forceinline__ float round_tf32(float v)
{
	unsigned r;
	asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(v));
	return __uint_as_float(r);
}

extern "C" __global__ void prepare_copies(const float *__restrict__ A, const float *__restrict__ B,
                                          float *__restrict__ At, float *__restrict__ Bt,
                                          __nv_bfloat16 *__restrict__ Ab, __nv_bfloat16 *__restrict__ Bb,
                                          __half *__restrict__ Ah, __half *__restrict__ Bh,
                                          unsigned char *__restrict__ A8, unsigned char *__restrict__ B8,
                                          float *__restrict__ sa, float *__restrict__ sb,
                                          signed char *__restrict__ Ai8, signed char *__restrict__ Bi8,
                                          float *__restrict__ sa8, float *__restrict__ sb8, unsigned *ready,
                                          int m, int n, int k)
{
	if (*(volatile unsigned *)ready) return;   // converted since the inputs were filled
	const int lane = threadIdx.x % 32;
	const long long warps = (long long)gridDim.x * (blockDim.x / 32);
	for (long long w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; w < (long long)m + n; w += warps) {
		// Logical row w: row w of A (elements 1 apart), or column w - m of B (elements n apart).
		const bool is_a = w < m;
		const long long r = is_a ? w : w - m;
		const float *src = is_a ? A + r * k : B + r;
		const long long step = is_a ? 1 : n;
		float amax = 0.f;
		for (long long c = lane; c < k; c += 32) amax = fmaxf(amax, fabsf(src[c * step]));
		for (int o = 16; o > 0; o /= 2) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, o));
		const float scale = amax > 0.f ? 448.f / amax : 1.f;
		float *t = is_a ? At : Bt;
		__nv_bfloat16 *b16 = is_a ? Ab : Bb;
		__half *h16 = is_a ? Ah : Bh;
		unsigned char *e8 = is_a ? A8 : B8;
		signed char *q8 = is_a ? Ai8 : Bi8;
		const float qscale = amax > 0.f ? 127.f / amax : 1.f;
		for (long long c = lane; c < k; c += 32) {
			const float v = src[c * step];
			const long long i = r * k + c;
			t[i] = round_tf32(v);
			b16[i] = __float2bfloat16_rn(v);
			h16[i] = __float2half_rn(v);
			e8[i] = (unsigned char)__nv_cvt_float_to_fp8(v * scale, __NV_SATFINITE, __NV_E4M3);
			q8[i] = (signed char)max(-127, min(127, __float2int_rn(v * qscale)));
		}
		if (lane == 0) {
			(is_a ? sa : sb)[r] = amax > 0.f ? amax / 448.f : 1.f;
			(is_a ? sa8 : sb8)[r] = amax > 0.f ? amax / 127.f : 1.f;
		}
	}
	// The last block to finish marks the copies ready: ready[1] counts finished blocks, so no block of
	// this launch sees ready[0] set, and every later launch does.
	__syncthreads();
	if (threadIdx.x == 0) {
		__threadfence();
		if (atomicAdd(&ready[1], 1u) == gridDim.x - 1) {
			__threadfence();
			*(volatile unsigned *)ready = 1u;
		}
	}
}
#endif
