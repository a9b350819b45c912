/* cub_histogram: C interface to cub::DeviceHistogram::HistogramEven (src/worker/cub_histogram.cu). */
#ifndef CC_CUB_HISTOGRAM_H
#define CC_CUB_HISTOGRAM_H
#include <stddef.h>
#include <cuda_runtime.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Counts count u32 samples of in into bins even bins over [lower, upper) (out: bins u32 counters,
 * overwritten; samples outside the range are not counted). Temporary storage is kept in *state (grown
 * as needed; the caller cudaFrees it). Returns a cudaError_t. */
int cc_cub_histogram_even(void **state, size_t *state_bytes, const unsigned *in, unsigned *out, int bins,
                          unsigned lower, unsigned upper, long long count, cudaStream_t s);
#ifdef __cplusplus
}
#endif
#endif
