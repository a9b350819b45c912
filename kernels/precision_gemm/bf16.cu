// The bf16 stage: the tensor-core GEMM of tc.cuh over the bf16 copies of A and B (copies.cuh).
#define FMT_BF16
#include "tc.cuh"

extern "C" __global__ void __launch_bounds__(NT, 1)
gemm_bf16(const __grid_constant__ cc_tensormap tmA, const __grid_constant__ cc_tensormap tmB, float *C,
        const float *sa, const float *sb, int m, int n, int k)
{
	tc_gemm(tmA, tmB, C, sa, sb, m, n, k);
}
