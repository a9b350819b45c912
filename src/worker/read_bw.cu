// read_bw: a read-only streaming kernel for the calibration (see read_bw.h). nvcc compiles it at
// build time; the worker calls it through the extern "C" function below.
#include <algorithm>
#include <cuda_runtime.h>
#include "read_bw.h"

namespace {

constexpr int kBlock = 256;

// Each thread issues LOADS 16-byte loads, kBlock int4s apart, before it adds any of them; the grid
// walks the buffer in rounds of gridDim.x * LOADS * kBlock int4s. The part past the last full round
// is spread over every thread of the grid (at most LOADS int4s each), so no block is left with a
// round of its own at the end. Each block adds its threads' sums into *out with one atomicAdd.
template <int LOADS>
__global__ void __launch_bounds__(kBlock) read_stream(const int4 *__restrict__ x, long long n4, unsigned *out)
{
	const long long chunk = (long long)LOADS * kBlock, round = chunk * gridDim.x, full = n4 / round * round;
	unsigned acc = 0;
	for (long long i = blockIdx.x * chunk + threadIdx.x; i < full; i += round) {
		int4 q[LOADS];
#pragma unroll
		for (int u = 0; u < LOADS; ++u) q[u] = x[i + u * kBlock];
#pragma unroll
		for (int u = 0; u < LOADS; ++u) acc += (unsigned)(q[u].x + q[u].y) + (unsigned)(q[u].z + q[u].w);
	}
	const long long g = (long long)blockIdx.x * kBlock + threadIdx.x, threads = (long long)gridDim.x * kBlock;
	int4 q[LOADS];
#pragma unroll
	for (int u = 0; u < LOADS; ++u) q[u] = full + g + u * threads < n4 ? x[full + g + u * threads] : make_int4(0, 0, 0, 0);
#pragma unroll
	for (int u = 0; u < LOADS; ++u) acc += (unsigned)(q[u].x + q[u].y) + (unsigned)(q[u].z + q[u].w);
#pragma unroll
	for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
	__shared__ unsigned warp_sums[kBlock / 32];
	if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = acc;
	__syncthreads();
	if (threadIdx.x == 0) {
		for (int w = 1; w < kBlock / 32; ++w) acc += warp_sums[w];
		atomicAdd(out, acc);
	}
}

template <int LOADS>
double time_stream(const int4 *x, long long n4, int reps)
{
	int dev = 0, sms = 0, per_sm = 0;
	if (cudaGetDevice(&dev) || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) ||
	    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_stream<LOADS>, kBlock, 0) || per_sm < 1)
		return -1;
	unsigned *out = nullptr;
	cudaEvent_t e0 = nullptr, e1 = nullptr;
	float t[32];
	reps = std::min(std::max(reps, 1), 32);
	bool ok = !cudaMalloc(&out, sizeof *out) && !cudaEventCreate(&e0) && !cudaEventCreate(&e1);
	for (int i = 0; ok && i < reps + 3; i++) {
		ok = !cudaEventRecord(e0, 0);
		if (ok) read_stream<LOADS><<<sms * per_sm, kBlock>>>(x, n4, out);
		ok = ok && !cudaGetLastError() && !cudaEventRecord(e1, 0) && !cudaEventSynchronize(e1);
		if (ok && i >= 3) ok = !cudaEventElapsedTime(&t[i - 3], e0, e1);
	}
	if (e0) cudaEventDestroy(e0);
	if (e1) cudaEventDestroy(e1);
	cudaFree(out);
	if (!ok) return -1;
	std::sort(t, t + reps);
	return reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
}

}  // namespace

extern "C" double cc_read_bw_ms(const void *buf, size_t bytes, int loads, int reps)
{
	const int4 *x = static_cast<const int4 *>(buf);
	const long long n4 = (long long)(bytes / 16);
	double ms = loads == 8 ? time_stream<8>(x, n4, reps) : time_stream<4>(x, n4, reps);
	if (ms < 0) cudaGetLastError();
	return ms;
}
