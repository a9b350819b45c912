/* baseline_cublaslt: the cuBLASLt GEMM baselines (lessons/README.md lists them): FP8 e4m3 with per-row
 * and per-column scales, FP8 e4m3 with per-tensor scales, and INT8 with its dequantisation. libcublasLt.so.13 is loaded with dlopen on
 * first use, like cuBLAS (baseline.c), and withheld with it by CUDACLIMB_WITHOUT=cublas. */
#ifndef CC_BASELINE_CUBLASLT_H
#define CC_BASELINE_CUBLASLT_H
#include <cuda_runtime.h>

#define CUBLASLT_CHOICE_MAX 192

/* Row-major C (m x n, f32, or bf16 for FP8 with c_bf16) = sa[i] * sb[j] * sum over k of A[i][k] *
 * Bt[j][k]: A m x k and Bt n x k (B stored transposed), sa m and sb n f32 (per tensor: sa[0] and
 * sb[0] only). fp8: A, Bt e4m3 bit patterns, FP32 accumulation (no fast accumulation, but for
 * cublaslt_fp8_tensor_fast). int8: A, Bt
 * int8, the int32 sums into acc (m x n int32, scratch) and a pass that dequantises them into C. */
typedef struct {
	const void *A, *Bt;
	const float *sa, *sb;
	void *C;
	int *acc;          /* int8 only */
	int m, n, k;
	int c_bf16;        /* fp8: C is bf16 (PyTorch's _scaled_mm output); 0: f32 */
	int format;        /* cublaslt_gemm: CUBLASLT_BF16, CUBLASLT_F16 or CUBLASLT_TF32 (f32 words) */
	int transb;        /* cublaslt_gemm: B (Bt) stored k x n (0) or n x k (1) */
	int c_same;        /* cublaslt_gemm: C in the inputs' type (bf16, f16; PyTorch's matmul output); 0: f32 */
} cublaslt_gemm_job;

enum { CUBLASLT_BF16, CUBLASLT_F16, CUBLASLT_TF32 };

/* cublasLtMatmul for j on stream s, with a 32 MiB workspace (allocated once) and the algorithm chosen
 * at the first call for the shape (the worker's warm-up, outside the timing): of the first 8 that
 * cublasLtMatmulAlgoGetHeuristic offers, the first 4 are timed on j's buffers (5 calls each after one
 * untimed, the median counts) and the fastest is kept, for the worker's life and in the cache folder
 * per GPU, cuBLASLt version and shape (baseline_pick.h), so that a later worker runs the same one
 * untimed. The choice is named in the result (baseline_choice). fp8 asks for outer-vector FP32 scales (CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F); where
 * this cuBLASLt or GPU refuses them, it multiplies with unit scales and applies sa[i] * sb[j] in a
 * separate pass over C, and says so once on stderr. cudaErrorSharedObjectInitFailed when cuBLASLt
 * cannot be loaded (said once on stderr), cudaErrorNotSupported when it has no algorithm for the shape. */
cudaError_t cublaslt_fp8(const cublaslt_gemm_job *j, cudaStream_t s);
cudaError_t cublaslt_int8(const cublaslt_gemm_job *j, cudaStream_t s);
/* FP8 e4m3 with per-tensor scales: C = sa[0] * sb[0] * A . Bt^T, the scalars passed to cuBLASLt as
 * CUBLASLT_MATMUL_DESC_A_SCALE_POINTER and B_SCALE_POINTER (the default scalar scale mode), as
 * PyTorch's _scaled_mm calls it by default, with no pass of ours. */
cudaError_t cublaslt_fp8_tensor(const cublaslt_gemm_job *j, cudaStream_t s);
/* The same with fast accumulation (CUBLASLT_MATMUL_DESC_FAST_ACCUM 1, PyTorch's _scaled_mm with
 * use_fast_accum=True): the sums stay in the tensor cores' accumulators over all of k, as the lesson's
 * own FP8 kernel keeps them, where the call above adds partial sums into FP32 registers as it goes. */
cudaError_t cublaslt_fp8_tensor_fast(const cublaslt_gemm_job *j, cudaStream_t s);
/* A plain GEMM through cuBLASLt, as PyTorch's matmul calls it: row-major C = A . B (A m x k, B in Bt k
 * x n or, transb, n x k) in format (bf16 or f16 with CUBLAS_COMPUTE_32F, or f32 words with
 * CUBLAS_COMPUTE_32F_FAST_TF32), C f32 or (c_same) the inputs' 16-bit type; alpha 1, beta 0, no
 * scales (sa, sb, acc unused). The algorithm and workspace as above. */
cudaError_t cublaslt_gemm(const cublaslt_gemm_job *j, cudaStream_t s);
/* Frees the handle, the descriptors and the workspace. */
void cublaslt_cleanup(void);
#endif
