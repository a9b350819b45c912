/* cub_reduce: C interface to cub::DeviceReduce::Sum (src/worker/cub_reduce.cu). */
#ifndef CC_CUB_REDUCE_H
#define CC_CUB_REDUCE_H
#include <stddef.h>
#include <cuda_runtime.h>
enum { CC_CUB_I32, CC_CUB_I64, CC_CUB_F32, CC_CUB_F64 };
#ifdef __cplusplus
extern "C" {
#endif
/* Sums count elements of in into *out (same type). Temporary storage is kept in *state (grown as
 * needed; the caller cudaFrees it). Returns a cudaError_t. */
int cc_cub_reduce_sum(void **state, size_t *state_bytes, int type, const void *in, void *out, long long count,
                      cudaStream_t s);
#ifdef __cplusplus
}
#endif
#endif
