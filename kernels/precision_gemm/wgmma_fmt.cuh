// The wgmma calls of the tensor-core stages, one per tile width N (128, 160, 176, 192 or 256), for the number format
// the stage file chose before including this (FMT_TF32, FMT_BF16, FMT_F16, FMT_E4M3 or FMT_S8). Every
// format reads 32 bytes of k per instruction from each operand: 8 TF32, 16 BF16 or FP16, 32 FP8 or
// INT8 values. Both operands are k-major (TF32, FP8 and INT8 allow nothing else), so BF16 and FP16
// pass 0 for both transposes.
// d (64 x N sums, N/2 registers a thread) += A . B, or = A . B when acc is 0. The sums are acc_t: FP32
// for the float formats, int32 for INT8 (exact; the integer wgmma has no scale or transpose operands).
#pragma once
#include "sm90.cuh"
#if defined(FMT_TF32)
#define WG_OP "wgmma.mma_async.sync.aligned.m64n"
#define WG_K "k8.f32.tf32.tf32"
#define WG_SCALES ", 1, 1"
#define WG_TAIL ""
#define ES 4
#elif defined(FMT_BF16)
#define WG_OP "wgmma.mma_async.sync.aligned.m64n"
#define WG_K "k16.f32.bf16.bf16"
#define WG_SCALES ", 1, 1"
#define WG_TAIL ", 0, 0"
#define ES 2
#elif defined(FMT_F16)
#define WG_OP "wgmma.mma_async.sync.aligned.m64n"
#define WG_K "k16.f32.f16.f16"
#define WG_SCALES ", 1, 1"
#define WG_TAIL ", 0, 0"
#define ES 2
#elif defined(FMT_E4M3)
#define WG_OP "wgmma.mma_async.sync.aligned.m64n"
#define WG_K "k32.f32.e4m3.e4m3"
#define WG_SCALES ", 1, 1"
#define WG_TAIL ""
#define ES 1
#elif defined(FMT_S8)
#define WG_OP "wgmma.mma_async.sync.aligned.m64n"
#define WG_K "k32.s32.s8.s8"
#define WG_SCALES ""
#define WG_TAIL ""
#define ES 1
#define WG_INT 1
#else
#error "define FMT_TF32, FMT_BF16, FMT_F16, FMT_E4M3 or FMT_S8 before including wgmma_fmt.cuh"
#endif

// The operand lists of one wgmma: WG_Dr(d) binds the r sums a thread of d[0 .. r-1], WG_C's constraint
// on each ("+f" or "+r"), eight at a time; WG_Rr is the text "%0, %1, ..., %(r-1)" that names them
// in the instruction, ten at a time (WG_R10(a): operands 10a .. 10a+9).
#ifdef WG_INT
typedef int acc_t;
#define WG_C(x) "+r"(x)
template <int R> __device__ __forceinline__ void wgmma_fence_regs(int (&d)[R])
{
#pragma unroll
	for (int i = 0; i < R; i++) asm volatile("" : "+r"(d[i])::"memory");
}
// A stream-K part in the FP32 workspace: the int32 sum's bits, added as integers (exact).
__device__ __forceinline__ float acc_to_work(int v) { return __int_as_float(v); }
__device__ __forceinline__ int work_to_acc(float w) { return __float_as_int(w); }
#else
typedef float acc_t;
#define WG_C(x) "+f"(x)
__device__ __forceinline__ float acc_to_work(float v) { return v; }
__device__ __forceinline__ float work_to_acc(float w) { return w; }
#endif
#define WG_C8(d, i) WG_C((d)[i]), WG_C((d)[i + 1]), WG_C((d)[i + 2]), WG_C((d)[i + 3]), WG_C((d)[i + 4]), WG_C((d)[i + 5]), WG_C((d)[i + 6]), WG_C((d)[i + 7])
#define WG_D64(d) WG_C8(d, 0), WG_C8(d, 8), WG_C8(d, 16), WG_C8(d, 24), WG_C8(d, 32), WG_C8(d, 40), WG_C8(d, 48), WG_C8(d, 56)
#define WG_D80(d) WG_D64(d), WG_C8(d, 64), WG_C8(d, 72)
#define WG_D88(d) WG_D80(d), WG_C8(d, 80)
#define WG_D96(d) WG_D88(d), WG_C8(d, 88)
#define WG_D128(d) WG_D96(d), WG_C8(d, 96), WG_C8(d, 104), WG_C8(d, 112), WG_C8(d, 120)
#define WG_R10(a) "%" #a "0, %" #a "1, %" #a "2, %" #a "3, %" #a "4, %" #a "5, %" #a "6, %" #a "7, %" #a "8, %" #a "9"
#define WG_R60 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, " WG_R10(1) ", " WG_R10(2) ", " WG_R10(3) ", " WG_R10(4) ", " WG_R10(5)
#define WG_R64 WG_R60 ", %60, %61, %62, %63"
#define WG_R80 WG_R60 ", " WG_R10(6) ", " WG_R10(7)
#define WG_R88 WG_R80 ", %80, %81, %82, %83, %84, %85, %86, %87"
#define WG_R96 WG_R80 ", " WG_R10(8) ", %90, %91, %92, %93, %94, %95"
#define WG_R128 WG_R96 ", %96, %97, %98, %99, " WG_R10(10) ", " WG_R10(11) ", %120, %121, %122, %123, %124, %125, %126, %127"

// wgmma_nN: one m64nNk* wgmma, R = N/2 sums a thread; its other operands are %R (A's descriptor),
// %R+1 (B's) and %R+2 (acc), written out because the preprocessor cannot add.
#define WG_MMA(N, R, DA, DB, ACC) \
	__device__ __forceinline__ void wgmma_n##N(acc_t (&d)[R], unsigned long long da, unsigned long long db, int acc) \
	{ \
		asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #ACC ", 0;\n" \
		             WG_OP #N WG_K " {" WG_R##R "}, %" #DA ", %" #DB ", p" WG_SCALES WG_TAIL ";\n}\n" \
		             : WG_D##R(d) : "l"(da), "l"(db), "r"(acc)); \
	}
WG_MMA(128, 64, 64, 65, 66)
WG_MMA(160, 80, 80, 81, 82)
WG_MMA(176, 88, 88, 89, 90)
WG_MMA(192, 96, 96, 97, 98)
WG_MMA(256, 128, 128, 129, 130)
#undef WG_MMA

template <int N> __device__ __forceinline__ void wgmma_fmt(acc_t (&d)[N / 2], unsigned long long da, unsigned long long db, int acc)
{
	static_assert(N == 128 || N == 160 || N == 176 || N == 192 || N == 256, "wgmma_fmt: N is 128, 160, 176, 192 or 256");
	if constexpr (N == 128) wgmma_n128(d, da, db, acc);
	else if constexpr (N == 160) wgmma_n160(d, da, db, acc);
	else if constexpr (N == 176) wgmma_n176(d, da, db, acc);
	else if constexpr (N == 192) wgmma_n192(d, da, db, acc);
	else wgmma_n256(d, da, db, acc);
}
