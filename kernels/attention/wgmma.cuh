// wgmma.cuh: what the flash_wgmma stage adds to the shared Hopper wrappers of kernels/common/sm90.cuh
// (mbarriers, TMA loads and stores, named barriers, the wgmma descriptor and fences): the two kinds of
// wgmma it issues (S = Q K^T from shared memory, O += P V with P from registers) and a few helpers.
#pragma once
#include "sm90.cuh"

// -infinity as a float (NVRTC has no math.h for INFINITY).
#define NEG_INF __int_as_float(0xff800000)

// Fences on accumulator registers (float: wgmma's d) and on packed bf16 operand registers.
template <int R> __device__ __forceinline__ void fence_regs(float (&d)[R]) { wgmma_fence_regs(d); }
template <int R> __device__ __forceinline__ void fence_regs(unsigned (&d)[R])
{
#pragma unroll
	for (int i = 0; i < R; i++) asm volatile("" : "+r"(d[i])::"memory");
}

// 2^x on the special-function unit (inputs of -inf give 0).
__device__ __forceinline__ float fast_exp2(float x)
{
	float y;
	asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
	return y;
}
// Two floats as one register of two bf16, a in the low half (the lower column).
__device__ __forceinline__ unsigned pack_bf16(float a, float b)
{
	unsigned r;
	asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(b), "f"(a));
	return r;
}

// The wgmma instructions, one wrapper per size (PTX names every accumulator register). Accumulator
// layout of m64nN: warp w of the warpgroup holds rows 16w + l/4 and 16w + l/4 + 8 for lane l, and in
// d[4j .. 4j+3] columns 8j + 2(l%4) and the next, for the first row then the second.
// d (64 x 64) (+)= A . B^T, A and B both K-major in shared memory (rows of k): S = Q K^T.
__device__ __forceinline__ void wgmma_ss_n64(float (&d)[32], unsigned long long da, unsigned long long db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {" CC_WG_R32 "}, %32, %33, p, 1, 1, 0, 0;\n}\n"
	             : CC_WG_D32(d) : "l"(da), "l"(db), "r"(acc));
}

// d (64 x 128) (+)= A . B^T, A and B both K-major in shared memory (rows of k): S = Q K^T.
__device__ __forceinline__ void wgmma_ss_n128(float (&d)[64], unsigned long long da, unsigned long long db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {" CC_WG_R64 "}, %64, %65, p, 1, 1, 0, 0;\n}\n"
	             : CC_WG_D64(d) : "l"(da), "l"(db), "r"(acc));
}

// d (64 x 176) (+)= A . B^T, A and B both K-major in shared memory (rows of k): S = Q K^T.
__device__ __forceinline__ void wgmma_ss_n176(float (&d)[88], unsigned long long da, unsigned long long db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %90, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n176k16.f32.bf16.bf16 {" CC_WG_R88 "}, %88, %89, p, 1, 1, 0, 0;\n}\n"
	             : CC_WG_D88(d) : "l"(da), "l"(db), "r"(acc));
}

// d (64 x 64) += A . B, A (64 x 16 bf16) from registers (4 a thread), B N-major in shared memory: O += P V.
__device__ __forceinline__ void wgmma_rs_n64(float (&d)[32], const unsigned (&a)[4], unsigned long long db)
{
	asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {" CC_WG_R32 "}, {%32, %33, %34, %35}, %36, 1, 1, 1, 1;\n"
	             : CC_WG_D32(d) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
}

// d (64 x 128) += A . B, A (64 x 16 bf16) from registers (4 a thread), B N-major in shared memory: O += P V.
__device__ __forceinline__ void wgmma_rs_n128(float (&d)[64], const unsigned (&a)[4], unsigned long long db)
{
	asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {" CC_WG_R64 "}, {%64, %65, %66, %67}, %68, 1, 1, 1, 1;\n"
	             : CC_WG_D64(d) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
}

template <int N> __device__ __forceinline__ void wgmma_qk(float (&d)[N / 2], unsigned long long da, unsigned long long db, int acc)
{
	if constexpr (N == 176) wgmma_ss_n176(d, da, db, acc);
	else if constexpr (N == 128) wgmma_ss_n128(d, da, db, acc);
	else wgmma_ss_n64(d, da, db, acc);
}
template <int N> __device__ __forceinline__ void wgmma_pv(float (&d)[N / 2], const unsigned (&a)[4], unsigned long long db)
{
	if constexpr (N == 128) wgmma_rs_n128(d, a, db);
	else wgmma_rs_n64(d, a, db);
}
