// cub_reduce: cub::DeviceReduce::Sum behind extern "C", for the reduction lesson's baseline.
// CUB is a C++ template library; this file is compiled by nvcc at build time.
#include <cub/device/device_reduce.cuh>
#include "cub_reduce.h"

template <typename T>
static int sum(void **state, size_t *state_bytes, const void *in, void *out, long long count, cudaStream_t s)
{
	size_t need = 0;
	cudaError_t e = cub::DeviceReduce::Sum(nullptr, need, (const T *)in, (T *)out, count, s);
	if (e != cudaSuccess) return (int)e;
	if (need > *state_bytes) {
		cudaFree(*state);
		*state = nullptr;
		*state_bytes = 0;
		if ((e = cudaMalloc(state, need)) != cudaSuccess) return (int)e;
		*state_bytes = need;
	}
	return (int)cub::DeviceReduce::Sum(*state, need, (const T *)in, (T *)out, count, s);
}

extern "C" int cc_cub_reduce_sum(void **state, size_t *state_bytes, int type, const void *in, void *out,
                                 long long count, cudaStream_t s)
{
	switch (type) {
	case CC_CUB_I32: return sum<int>(state, state_bytes, in, out, count, s);
	case CC_CUB_I64: return sum<long long>(state, state_bytes, in, out, count, s);
	case CC_CUB_F32: return sum<float>(state, state_bytes, in, out, count, s);
	case CC_CUB_F64: return sum<double>(state, state_bytes, in, out, count, s);
	}
	return (int)cudaErrorInvalidValue;
}
