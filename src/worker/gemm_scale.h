/* gemm_scale: the scaling passes of the cuBLASLt GEMM baselines (src/worker/gemm_scale.cu): the
 * per-row and per-column scales of a scaled GEMM applied to its result, C[i][j] = sa[i] * sb[j] * acc. */
#ifndef CC_GEMM_SCALE_H
#define CC_GEMM_SCALE_H
#include <cuda_runtime.h>
#ifdef __cplusplus
extern "C" {
#endif
/* C (m x n f32, row-major) = sa[i] * sb[j] * acc[i][j], acc int32 m x n row-major: INT8's dequantisation.
 * Returns a cudaError_t (the launch's). */
int cc_gemm_dequant_i32(const int *acc, const float *sa, const float *sb, float *C, int m, int n, cudaStream_t s);
/* C[i][j] *= sa[i] * sb[j] in place (m x n f32, row-major). Returns a cudaError_t (the launch's). */
int cc_gemm_scale_f32(float *C, const float *sa, const float *sb, int m, int n, cudaStream_t s);
#ifdef __cplusplus
}
#endif
#endif
