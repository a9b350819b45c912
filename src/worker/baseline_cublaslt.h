/* baseline_cublaslt: the cuBLASLt GEMM baselines (lessons/README.md lists them): FP8 e4m3 with per-row
 * and per-column scales, and INT8 with its dequantisation. libcublasLt.so.13 is loaded with dlopen on
 * first use, like cuBLAS (baseline.c), and withheld with it by CUDACLIMB_WITHOUT=cublas. */
#ifndef CC_BASELINE_CUBLASLT_H
#define CC_BASELINE_CUBLASLT_H
#include <cuda_runtime.h>

/* Row-major C (m x n, f32) = sa[i] * sb[j] * sum over k of A[i][k] * Bt[j][k]: A m x k and Bt n x k
 * (B stored transposed), sa m and sb n f32. fp8: A, Bt e4m3 bit patterns, FP32 accumulation (no fast
 * accumulation). int8: A, Bt int8, the int32 sums into acc (m x n int32, scratch) and a pass that
 * dequantises them into C. */
typedef struct {
	const void *A, *Bt;
	const float *sa, *sb;
	float *C;
	int *acc;          /* int8 only */
	int m, n, k;
} cublaslt_gemm_job;

/* cublasLtMatmul for j on stream s; the algorithm from cublasLtMatmulAlgoGetHeuristic, asked once per
 * shape, and a 32 MiB workspace allocated once, both at the first call (the worker's warm-up, outside
 * the timing). fp8 asks for outer-vector FP32 scales (CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F); where
 * this cuBLASLt or GPU refuses them, it multiplies with unit scales and applies sa[i] * sb[j] in a
 * separate pass over C, and says so once on stderr. cudaErrorSharedObjectInitFailed when cuBLASLt
 * cannot be loaded (said once on stderr), cudaErrorNotSupported when it has no algorithm for the shape. */
cudaError_t cublaslt_fp8(const cublaslt_gemm_job *j, cudaStream_t s);
cudaError_t cublaslt_int8(const cublaslt_gemm_job *j, cudaStream_t s);
/* Frees the handle, the descriptors and the workspace. */
void cublaslt_cleanup(void);
#endif
