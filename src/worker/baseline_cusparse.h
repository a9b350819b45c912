/* baseline_cusparse: cuSPARSE's SpMV as a baseline (lessons/README.md lists it), loaded with dlopen on
 * first use so that cudaclimb builds, starts and runs every other lesson without cuSPARSE. */
#ifndef CC_BASELINE_CUSPARSE_H
#define CC_BASELINE_CUSPARSE_H
#include <cuda_runtime.h>
#include <stdint.h>

/* y = A x for A rows x cols in CSR with nnz nonzeros: i32 row_ptr (rows + 1), i32 col_idx and f32
 * values (nnz each), f32 x (cols) and y (rows), all device memory, indices from 0. */
typedef struct {
	const int32_t *row_ptr, *col_idx;
	const float *values, *x;
	float *y;
	int64_t rows, cols, nnz;
} cusparse_spmv_job;

/* Runs j on stream s with cusparseSpMV, CUSPARSE_SPMV_CSR_ALG2; the descriptors and the workspace are
 * made once per shape and pointers, outside the timed calls. cudaErrorInvalidValue for a shape
 * cuSPARSE refuses (said on stderr with its status); cudaErrorSharedObjectInitFailed when cuSPARSE
 * (libcusparse.so.12) cannot be loaded (said once on stderr). */
cudaError_t cusparse_spmv(const cusparse_spmv_job *j, cudaStream_t s);

/* Frees the descriptors, the workspace and the handle (the library stays loaded). */
void cusparse_baseline_cleanup(void);
#endif
