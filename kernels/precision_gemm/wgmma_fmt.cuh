// The wgmma calls of the tensor-core stages, one per tile width N (128 or 256), for the number format
// the stage file chose before including this (FMT_TF32, FMT_BF16, FMT_F16 or FMT_E4M3). Every format
// reads 32 bytes of k per instruction from each operand: 8 TF32, 16 BF16 or FP16, 32 FP8 values. Both
// operands are k-major (TF32 and FP8 allow nothing else), so BF16 and FP16 pass 0 for both transposes.
// d (64 x N FP32, N/2 registers a thread) += A . B, or = A . B when acc is 0.
#pragma once
#include "sm90.cuh"
#if defined(FMT_TF32)
#define WG_OP "wgmma.mma_async.sync.aligned.m64n"
#define WG_K "k8.f32.tf32.tf32"
#define WG_TAIL ""
#define ES 4
#elif defined(FMT_BF16)
#define WG_OP "wgmma.mma_async.sync.aligned.m64n"
#define WG_K "k16.f32.bf16.bf16"
#define WG_TAIL ", 0, 0"
#define ES 2
#elif defined(FMT_F16)
#define WG_OP "wgmma.mma_async.sync.aligned.m64n"
#define WG_K "k16.f32.f16.f16"
#define WG_TAIL ", 0, 0"
#define ES 2
#elif defined(FMT_E4M3)
#define WG_OP "wgmma.mma_async.sync.aligned.m64n"
#define WG_K "k32.f32.e4m3.e4m3"
#define WG_TAIL ""
#define ES 1
#else
#error "define FMT_TF32, FMT_BF16, FMT_F16 or FMT_E4M3 before including wgmma_fmt.cuh"
#endif

__device__ __forceinline__ void wgmma_n128(float (&d)[64], unsigned long long da, unsigned long long db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
	             WG_OP "128" WG_K " {" CC_WG_R64 "}, %64, %65, p, 1, 1" WG_TAIL ";\n}\n"
	             : CC_WG_D64(d) : "l"(da), "l"(db), "r"(acc));
}

__device__ __forceinline__ void wgmma_n256(float (&d)[128], unsigned long long da, unsigned long long db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
	             WG_OP "256" WG_K " {" CC_WG_R128 "}, %128, %129, p, 1, 1" WG_TAIL ";\n}\n"
	             : CC_WG_D128(d) : "l"(da), "l"(db), "r"(acc));
}

template <int N> __device__ __forceinline__ void wgmma_fmt(float (&d)[N / 2], unsigned long long da, unsigned long long db, int acc)
{
	if constexpr (N == 256) wgmma_n256(d, da, db, acc);
	else wgmma_n128(d, da, db, acc);
}
