/* baseline_cublas_gemv: cuBLAS's SGEMV as a baseline (cublas_sgemv; lessons/README.md lists it), loaded
 * with dlopen on first use so that cudaclimb builds, starts and runs every other lesson without cuBLAS.
 * The model for a new library baseline: docs/adding-a-library.md. */
#ifndef CC_BASELINE_CUBLAS_GEMV_H
#define CC_BASELINE_CUBLAS_GEMV_H
#include <cuda_runtime.h>

/* y = A x in FP32: A row-major m x n (a[i * n + j]), x n and y m elements, all device memory. */
typedef struct {
	const float *A, *x;
	float *y;
	int m, n;
} baseline_cublas_gemv_job;

/* Runs j on stream s with cublasSgemv_v2 (A read as the column-major n x m matrix A^T, so OP_T). 0;
 * cudaErrorInvalidValue for a shape cuBLAS refuses; cudaErrorSharedObjectInitFailed when cuBLAS
 * (libcublas.so.13) cannot be loaded (said once on stderr). */
cudaError_t baseline_cublas_gemv_run(const baseline_cublas_gemv_job *j, cudaStream_t s);

/* Frees the handle (the library stays loaded). */
void baseline_cublas_gemv_cleanup(void);
#endif
