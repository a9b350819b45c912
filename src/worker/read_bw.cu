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

// The other order: block b reads one chunk of its own, LOADS * BLOCK consecutive int4s (each thread
// LOADS of them, BLOCK apart, all in flight), and the grid has one block per chunk, so the hardware
// hands chunks to SMs as blocks finish. The last chunk may be partial.
template <int BLOCK, int LOADS>
__global__ void __launch_bounds__(BLOCK) read_chunks(const int4 *__restrict__ x, long long n4, unsigned *out)
{
	const long long base = (long long)blockIdx.x * LOADS * BLOCK + threadIdx.x;
	const bool whole = base + (long long)(LOADS - 1) * BLOCK < n4;
	unsigned acc = 0;
#pragma unroll
	for (int u = 0; u < LOADS; ++u)
		if (whole || base + u * BLOCK < n4) {
			const int4 q = x[base + u * BLOCK];
			acc += (unsigned)(q.x + q.y) + (unsigned)(q.z + q.w);
		}
#pragma unroll
	for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
	__shared__ unsigned warp_sums[BLOCK / 32];
	if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = acc;
	__syncthreads();
	if (threadIdx.x == 0) {
		for (int w = 1; w < BLOCK / 32; ++w) acc += warp_sums[w];
		atomicAdd(out, acc);
	}
}

// The median of reps timed launches of launch(out) (after 3 unmeasured ones), in ms; -1 on an error.
template <typename F>
double time_launches(F launch, int reps)
{
	unsigned *out = nullptr;
	cudaEvent_t e0 = nullptr, e1 = nullptr;
	float t[32];
	reps = std::min(std::max(reps, 1), 32);
	bool ok = !cudaMalloc(&out, sizeof *out) && !cudaEventCreate(&e0) && !cudaEventCreate(&e1);
	for (int i = 0; ok && i < reps + 3; i++) {
		ok = !cudaEventRecord(e0, 0);
		if (ok) launch(out);
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

template <int LOADS>
double time_stream(const int4 *x, long long n4, int reps)
{
	int dev = 0, sms = 0, per_sm = 0;
	if (cudaGetDevice(&dev) || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) ||
	    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_stream<LOADS>, kBlock, 0) || per_sm < 1)
		return -1;
	return time_launches([=](unsigned *out) { read_stream<LOADS><<<sms * per_sm, kBlock>>>(x, n4, out); }, reps);
}

template <int BLOCK, int LOADS>
double time_chunks(const int4 *x, long long n4, int reps)
{
	const long long chunk = (long long)LOADS * BLOCK, blocks = (n4 + chunk - 1) / chunk;
	if (blocks < 1 || blocks > 0x7fffffff) return -1;
	return time_launches([=](unsigned *out) { read_chunks<BLOCK, LOADS><<<(unsigned)blocks, BLOCK>>>(x, n4, out); }, reps);
}

}  // namespace

const char *cc_read_bw_name(int variant)
{
	switch (variant) {
	case 0: return "grid-stride, 256 threads x 4 loads";
	case 1: return "grid-stride, 256 threads x 8 loads";
	case 2: return "a chunk per block, 256 threads x 16 loads";
	case 3: return "a chunk per block, 1024 threads x 16 loads";
	case 4: return "a chunk per block, 512 threads x 16 loads";
	case 5: return "a chunk per block, 1024 threads x 8 loads";
	}
	return "?";
}

extern "C" double cc_read_bw_ms(const void *buf, size_t bytes, int variant, int reps)
{
	const int4 *x = static_cast<const int4 *>(buf);
	const long long n4 = (long long)(bytes / 16);
	double ms = -1;
	switch (variant) {
	case 0: ms = time_stream<4>(x, n4, reps); break;
	case 1: ms = time_stream<8>(x, n4, reps); break;
	case 2: ms = time_chunks<256, 16>(x, n4, reps); break;
	case 3: ms = time_chunks<1024, 16>(x, n4, reps); break;
	case 4: ms = time_chunks<512, 16>(x, n4, reps); break;
	case 5: ms = time_chunks<1024, 8>(x, n4, reps); break;
	}
	if (ms < 0) cudaGetLastError();
	return ms;
}

extern "C" cudaError_t cc_read_evict(const void *buf, size_t bytes)
{
	static unsigned *out;
	static int grid;
	if (!out) {
		int dev = 0, sms = 0, per_sm = 0;
		cudaError_t e;
		if ((e = cudaGetDevice(&dev)) || (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) ||
		    (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_stream<4>, kBlock, 0)) || (e = cudaMalloc(&out, sizeof *out)))
			return e;
		grid = sms * (per_sm > 0 ? per_sm : 1);
	}
	read_stream<4><<<grid, kBlock>>>(static_cast<const int4 *>(buf), (long long)(bytes / 16), out);
	return cudaGetLastError();
}
