// cub_histogram: cub::DeviceHistogram::HistogramEven behind extern "C", for the histogram lesson's
// baseline. CUB is a C++ template library; this file is compiled by nvcc at build time.
#include <cub/device/device_histogram.cuh>
#include "cub_histogram.h"

extern "C" int cc_cub_histogram_even(void **state, size_t *state_bytes, const unsigned *in, unsigned *out, int bins,
                                     unsigned lower, unsigned upper, long long count, cudaStream_t s)
{
	size_t need = 0;
	cudaError_t e = cub::DeviceHistogram::HistogramEven(nullptr, need, in, out, bins + 1, lower, upper, count, s);
	if (e != cudaSuccess) return (int)e;
	if (need > *state_bytes) {
		cudaFree(*state);
		*state = nullptr;
		*state_bytes = 0;
		if ((e = cudaMalloc(state, need)) != cudaSuccess) return (int)e;
		*state_bytes = need;
	}
	return (int)cub::DeviceHistogram::HistogramEven(*state, need, in, out, bins + 1, lower, upper, count, s);
}
