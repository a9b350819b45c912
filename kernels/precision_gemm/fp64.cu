// Stage 1, the reference: FP32 inputs, FP64 products and sums on the CUDA cores (DFMA), one rounding
// to FP32 at the end. Also the home of prepare_copies, the one-time conversion to the other formats.
#include "simt.cuh"
#include "copies.cuh"

#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 8
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif

extern "C" __global__ void __launch_bounds__((BM / TM) * (BN / TN))
gemm_fp64(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int m, int n, int k)
{
	simt_gemm<double, BM, BN, BK, TM, TN>(A, B, C, m, n, k);
}
