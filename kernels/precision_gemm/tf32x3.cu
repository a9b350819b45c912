// FP32 accuracy from TF32 tensor cores (3xTF32): the sgemm lesson's last stage, whose kernel is
// kernels/common/tf32x3.cuh; here for its error against the FP64 stage, beside TF32's and FP32's.
#include "tf32x3.cuh"

extern "C" __global__ void __launch_bounds__(NT, MINB)
gemm_tf32x3(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int m, int n, int k)
{
	extern __shared__ __align__(128) float smem[];
	tf32x3_gemm(A, B, C, m, n, k, smem);
}
