// The wgmma calls of the tensor-core stages, one per tile width N (128 or 256), for the number format
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

#ifdef WG_INT
typedef int acc_t;
// The "+r" constraints on int32 sums, like sm90.cuh's CC_WG_D64 and CC_WG_D128 ("+f").
#define WG_D64(d) "+r"((d)[0]), "+r"((d)[1]), "+r"((d)[2]), "+r"((d)[3]), "+r"((d)[4]), "+r"((d)[5]), "+r"((d)[6]), "+r"((d)[7]), "+r"((d)[8]), "+r"((d)[9]), "+r"((d)[10]), "+r"((d)[11]), "+r"((d)[12]), "+r"((d)[13]), "+r"((d)[14]), "+r"((d)[15]), "+r"((d)[16]), "+r"((d)[17]), "+r"((d)[18]), "+r"((d)[19]), "+r"((d)[20]), "+r"((d)[21]), "+r"((d)[22]), "+r"((d)[23]), "+r"((d)[24]), "+r"((d)[25]), "+r"((d)[26]), "+r"((d)[27]), "+r"((d)[28]), "+r"((d)[29]), "+r"((d)[30]), "+r"((d)[31]), "+r"((d)[32]), "+r"((d)[33]), "+r"((d)[34]), "+r"((d)[35]), "+r"((d)[36]), "+r"((d)[37]), "+r"((d)[38]), "+r"((d)[39]), "+r"((d)[40]), "+r"((d)[41]), "+r"((d)[42]), "+r"((d)[43]), "+r"((d)[44]), "+r"((d)[45]), "+r"((d)[46]), "+r"((d)[47]), "+r"((d)[48]), "+r"((d)[49]), "+r"((d)[50]), "+r"((d)[51]), "+r"((d)[52]), "+r"((d)[53]), "+r"((d)[54]), "+r"((d)[55]), "+r"((d)[56]), "+r"((d)[57]), "+r"((d)[58]), "+r"((d)[59]), "+r"((d)[60]), "+r"((d)[61]), "+r"((d)[62]), "+r"((d)[63])
#define WG_D128(d) "+r"((d)[0]), "+r"((d)[1]), "+r"((d)[2]), "+r"((d)[3]), "+r"((d)[4]), "+r"((d)[5]), "+r"((d)[6]), "+r"((d)[7]), "+r"((d)[8]), "+r"((d)[9]), "+r"((d)[10]), "+r"((d)[11]), "+r"((d)[12]), "+r"((d)[13]), "+r"((d)[14]), "+r"((d)[15]), "+r"((d)[16]), "+r"((d)[17]), "+r"((d)[18]), "+r"((d)[19]), "+r"((d)[20]), "+r"((d)[21]), "+r"((d)[22]), "+r"((d)[23]), "+r"((d)[24]), "+r"((d)[25]), "+r"((d)[26]), "+r"((d)[27]), "+r"((d)[28]), "+r"((d)[29]), "+r"((d)[30]), "+r"((d)[31]), "+r"((d)[32]), "+r"((d)[33]), "+r"((d)[34]), "+r"((d)[35]), "+r"((d)[36]), "+r"((d)[37]), "+r"((d)[38]), "+r"((d)[39]), "+r"((d)[40]), "+r"((d)[41]), "+r"((d)[42]), "+r"((d)[43]), "+r"((d)[44]), "+r"((d)[45]), "+r"((d)[46]), "+r"((d)[47]), "+r"((d)[48]), "+r"((d)[49]), "+r"((d)[50]), "+r"((d)[51]), "+r"((d)[52]), "+r"((d)[53]), "+r"((d)[54]), "+r"((d)[55]), "+r"((d)[56]), "+r"((d)[57]), "+r"((d)[58]), "+r"((d)[59]), "+r"((d)[60]), "+r"((d)[61]), "+r"((d)[62]), "+r"((d)[63]), "+r"((d)[64]), "+r"((d)[65]), "+r"((d)[66]), "+r"((d)[67]), "+r"((d)[68]), "+r"((d)[69]), "+r"((d)[70]), "+r"((d)[71]), "+r"((d)[72]), "+r"((d)[73]), "+r"((d)[74]), "+r"((d)[75]), "+r"((d)[76]), "+r"((d)[77]), "+r"((d)[78]), "+r"((d)[79]), "+r"((d)[80]), "+r"((d)[81]), "+r"((d)[82]), "+r"((d)[83]), "+r"((d)[84]), "+r"((d)[85]), "+r"((d)[86]), "+r"((d)[87]), "+r"((d)[88]), "+r"((d)[89]), "+r"((d)[90]), "+r"((d)[91]), "+r"((d)[92]), "+r"((d)[93]), "+r"((d)[94]), "+r"((d)[95]), "+r"((d)[96]), "+r"((d)[97]), "+r"((d)[98]), "+r"((d)[99]), "+r"((d)[100]), "+r"((d)[101]), "+r"((d)[102]), "+r"((d)[103]), "+r"((d)[104]), "+r"((d)[105]), "+r"((d)[106]), "+r"((d)[107]), "+r"((d)[108]), "+r"((d)[109]), "+r"((d)[110]), "+r"((d)[111]), "+r"((d)[112]), "+r"((d)[113]), "+r"((d)[114]), "+r"((d)[115]), "+r"((d)[116]), "+r"((d)[117]), "+r"((d)[118]), "+r"((d)[119]), "+r"((d)[120]), "+r"((d)[121]), "+r"((d)[122]), "+r"((d)[123]), "+r"((d)[124]), "+r"((d)[125]), "+r"((d)[126]), "+r"((d)[127])
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
#define WG_D64(d) CC_WG_D64(d)
#define WG_D128(d) CC_WG_D128(d)
__device__ __forceinline__ float acc_to_work(float v) { return v; }
__device__ __forceinline__ float work_to_acc(float w) { return w; }
#endif

__device__ __forceinline__ void wgmma_n128(acc_t (&d)[64], unsigned long long da, unsigned long long db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
	             WG_OP "128" WG_K " {" CC_WG_R64 "}, %64, %65, p" WG_SCALES WG_TAIL ";\n}\n"
	             : WG_D64(d) : "l"(da), "l"(db), "r"(acc));
}

__device__ __forceinline__ void wgmma_n256(acc_t (&d)[128], unsigned long long da, unsigned long long db, int acc)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
	             WG_OP "256" WG_K " {" CC_WG_R128 "}, %128, %129, p" WG_SCALES WG_TAIL ";\n}\n"
	             : WG_D128(d) : "l"(da), "l"(db), "r"(acc));
}

template <int N> __device__ __forceinline__ void wgmma_fmt(acc_t (&d)[N / 2], unsigned long long da, unsigned long long db, int acc)
{
	if constexpr (N == 256) wgmma_n256(d, da, db, acc);
	else wgmma_n128(d, da, db, acc);
}
