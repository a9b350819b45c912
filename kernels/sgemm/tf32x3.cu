// Stage 10: past the FP32 pipe. The kernel lives in kernels/common/tf32x3.cuh, shared with the
// precision_gemm lesson, which measures its error against an FP64 GEMM: FP32's accuracy from the TF32
// tensor cores, each input split into a TF32 "big" part and a TF32 "small" rest, three products in
// place of one FMA, and each k-tile summed apart before it is added to C's sums in FP32.
#include "tf32x3.cuh"

extern "C" __global__ void __launch_bounds__(NT, MINB)
sgemm_tf32x3(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int m, int n, int k)
{
	extern __shared__ __align__(128) float smem[];
	tf32x3_gemm(A, B, C, m, n, k, smem);
}
