/* cub_scan: C interface to cub::DeviceScan::ExclusiveSum (src/worker/cub_scan.cu). */
#ifndef CC_CUB_SCAN_H
#define CC_CUB_SCAN_H
#include <stddef.h>
#include <cuda_runtime.h>
enum { CC_CUB_SCAN_I32, CC_CUB_SCAN_U32, CC_CUB_SCAN_I64, CC_CUB_SCAN_U64 };
#ifdef __cplusplus
extern "C" {
#endif
/* Writes the exclusive prefix sums of count elements of in to out (same integer type: out[0] = 0,
 * out[i] = in[0] + ... + in[i-1], wrapping as the type does). Temporary storage is kept in *state
 * (grown as needed; the caller cudaFrees it). Returns a cudaError_t. */
int cc_cub_exclusive_sum(void **state, size_t *state_bytes, int type, const void *in, void *out, long long count,
                         cudaStream_t s);
#ifdef __cplusplus
}
#endif
#endif
