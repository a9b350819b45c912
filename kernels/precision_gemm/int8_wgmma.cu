// The int8_wgmma stage: the tensor-core GEMM of tc.cuh (the fp8 stage's kernel) over the INT8 copies
// Ai8, Bi8 of copies.cuh, with wgmma's s8 form (m64nNk32, exact int32 sums) in place of e4m3; the
// store converts each sum to FP32 and multiplies it by sa8[i] * sb8[j], as the dp4a and mma stages do.
#define FMT_S8
#include "tc.cuh"

// tmC is read only with EPILOGUE 1 (and n % 4 == 0), work and flags only with STREAMK 1.
extern "C" __global__ void __launch_bounds__(NT, 1) TC_CLUSTER
gemm_int8_wgmma(const __grid_constant__ cc_tensormap tmA, const __grid_constant__ cc_tensormap tmB,
                const __grid_constant__ cc_tensormap tmC, float *C, const float *sa8, const float *sb8, float *work,
                unsigned *flags, int m, int n, int k)
{
	tc_gemm(tmA, tmB, tmC, C, sa8, sb8, work, flags, m, n, k);
}
