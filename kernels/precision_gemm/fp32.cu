// Stage 2: the same kernel with FP32 products and sums (FFMA): 24 significant bits instead of 53.
#include "simt.cuh"

#ifndef BM
#define BM 128
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
#define TN 4
#endif

extern "C" __global__ void __launch_bounds__((BM / TM) * (BN / TN))
gemm_fp32(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int m, int n, int k)
{
	simt_gemm<float, BM, BN, BK, TM, TN>(A, B, C, m, n, k);
}
