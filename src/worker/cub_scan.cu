// cub_scan: cub::DeviceScan::ExclusiveSum behind extern "C", for the scan lesson's baseline.
// CUB is a C++ template library; this file is compiled by nvcc at build time.
#include <cub/device/device_scan.cuh>
#include "cub_scan.h"

template <typename T>
static int exclusive_sum(void **state, size_t *state_bytes, const void *in, void *out, long long count, cudaStream_t s)
{
	size_t need = 0;
	cudaError_t e = cub::DeviceScan::ExclusiveSum(nullptr, need, (const T *)in, (T *)out, count, s);
	if (e != cudaSuccess) return (int)e;
	if (need > *state_bytes) {
		cudaFree(*state);
		*state = nullptr;
		*state_bytes = 0;
		if ((e = cudaMalloc(state, need)) != cudaSuccess) return (int)e;
		*state_bytes = need;
	}
	return (int)cub::DeviceScan::ExclusiveSum(*state, need, (const T *)in, (T *)out, count, s);
}

extern "C" int cc_cub_exclusive_sum(void **state, size_t *state_bytes, int type, const void *in, void *out,
                                    long long count, cudaStream_t s)
{
	switch (type) {
	case CC_CUB_SCAN_I32: return exclusive_sum<int>(state, state_bytes, in, out, count, s);
	case CC_CUB_SCAN_U32: return exclusive_sum<unsigned int>(state, state_bytes, in, out, count, s);
	case CC_CUB_SCAN_I64: return exclusive_sum<long long>(state, state_bytes, in, out, count, s);
	case CC_CUB_SCAN_U64: return exclusive_sum<unsigned long long>(state, state_bytes, in, out, count, s);
	}
	return (int)cudaErrorInvalidValue;
}
