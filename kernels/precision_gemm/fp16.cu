// The fp16 stage: the tensor-core GEMM of tc.cuh over the fp16 copies of A and B (copies.cuh).
#define FMT_F16
#include "tc.cuh"

// tmC is read only with EPILOGUE 1 (and n % 4 == 0), work and flags only with STREAMK 1.
extern "C" __global__ void __launch_bounds__(NT, 1) TC_CLUSTER
gemm_fp16(const __grid_constant__ cc_tensormap tmA, const __grid_constant__ cc_tensormap tmB,
        const __grid_constant__ cc_tensormap tmC, float *C, const float *sa, const float *sb, float *work, unsigned *flags,
        int m, int n, int k)
{
	tc_gemm(tmA, tmB, tmC, C, sa, sb, work, flags, m, n, k);
}
