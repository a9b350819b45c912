// hopper.cuh: the wgmma calls of the tensorcore lesson's Hopper stages (BF16, B stored n-major) and
// their epilogue; the instructions they share with other lessons (mbarriers, TMA, clusters, the
// descriptor, fences) are in kernels/common/sm90.cuh.
#pragma once
#include "sm90.cuh"

// d (64 x N FP32; N/2 registers a thread) += A . B, or = A . B when acc is 0. A: 64 x 16, K-major
// (rows of k); B: 16 x N, N-major (rows of n, as B is stored): the last immediate, imm-trans-b, is 1.
__device__ __forceinline__ void wgmma_n64(float (&d)[32], unsigned long long da, unsigned long long db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {" CC_WG_R32 "}, %32, %33, p, 1, 1, 0, 1;\n}\n"
	             : CC_WG_D32(d) : "l"(da), "l"(db), "r"(acc));
}

__device__ __forceinline__ void wgmma_n128(float (&d)[64], unsigned long long da, unsigned long long db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {" CC_WG_R64 "}, %64, %65, p, 1, 1, 0, 1;\n}\n"
	             : CC_WG_D64(d) : "l"(da), "l"(db), "r"(acc));
}

__device__ __forceinline__ void wgmma_n192(float (&d)[96], unsigned long long da, unsigned long long db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16 {" CC_WG_R96 "}, %96, %97, p, 1, 1, 0, 1;\n}\n"
	             : CC_WG_D96(d) : "l"(da), "l"(db), "r"(acc));
}

__device__ __forceinline__ void wgmma_n256(float (&d)[128], unsigned long long da, unsigned long long db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {" CC_WG_R128 "}, %128, %129, p, 1, 1, 0, 1;\n}\n"
	             : CC_WG_D128(d) : "l"(da), "l"(db), "r"(acc));
}

// d += A . B for a 64 x N tile, N = 64, 128, 192 or 256 (the sizes the stages offer).
template <int N> __device__ __forceinline__ void wgmma_bf16(float (&d)[N / 2], unsigned long long da, unsigned long long db, int acc)
{
	if constexpr (N == 256) wgmma_n256(d, da, db, acc);
	else if constexpr (N == 192) wgmma_n192(d, da, db, acc);
	else if constexpr (N == 128) wgmma_n128(d, da, db, acc);
	else wgmma_n64(d, da, db, acc);
}

// Writes a warpgroup's 64 x N FP32 accumulators to row-major C (m x n, n even) at (row0, col0),
// skipping what falls outside. Layout of m64nNk16: warp w of the group holds rows 16w + l/4 and
// 16w + l/4 + 8 for lane l, columns 8j + 2(l%4) and the next, for j = 0..N/8-1.
template <int N> __device__ __forceinline__ void wgmma_store(const float (&d)[N / 2], float *C, int m, int n, int row0, int col0)
{
	const int lane = threadIdx.x % 32, warp = (threadIdx.x % 128) / 32;
	const int row = row0 + warp * 16 + lane / 4;
	const int c0 = col0 + 2 * (lane % 4);
#pragma unroll
	for (int j = 0; j < N / 8; j++) {
		const int col = c0 + 8 * j;
		if (col < n) {
			if (row < m) *(float2 *)&C[(size_t)row * n + col] = make_float2(d[4 * j], d[4 * j + 1]);
			if (row + 8 < m) *(float2 *)&C[(size_t)(row + 8) * n + col] = make_float2(d[4 * j + 2], d[4 * j + 3]);
		}
	}
}
