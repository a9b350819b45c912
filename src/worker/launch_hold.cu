// launch_hold: the blocking kernel before a timed repetition's start event (see launch_hold.h).
// nvcc compiles it at build time; the worker calls it through the extern "C" functions below.
#include <cuda_runtime.h>
#include "launch_hold.h"

namespace {

// word[0]: the last generation released by the host; word[1]: the last generation that gave up.
unsigned *word_host;
unsigned *word_dev;
unsigned generation;

// a template, as read_bw.cu's kernels: nvcc gives a plain kernel's stub a global name of its own
template <int>
__global__ void hold(volatile unsigned *word, unsigned gen, unsigned long long timeout_ns)
{
	unsigned long long t0, t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	while ((int)(word[0] - gen) < 0) {
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
		if (t - t0 > timeout_ns) {
			word[1] = gen;
			__threadfence_system();
			return;
		}
		__nanosleep(200);
	}
}

}  // namespace

extern "C" cudaError_t cc_launch_hold_queue(double timeout_ms)
{
	if (!word_host) {
		void *h = nullptr, *d = nullptr;
		cudaError_t e = cudaHostAlloc(&h, 2 * sizeof(unsigned), cudaHostAllocMapped);
		if (e) return e;
		if ((e = cudaHostGetDevicePointer(&d, h, 0))) {
			cudaFreeHost(h);
			return e;
		}
		word_host = static_cast<unsigned *>(h);
		word_dev = static_cast<unsigned *>(d);
		__atomic_store_n(&word_host[0], 0u, __ATOMIC_RELEASE);
		__atomic_store_n(&word_host[1], 0u, __ATOMIC_RELEASE);
	}
	generation++;
	hold<0><<<1, 1>>>(word_dev, generation, (unsigned long long)(timeout_ms * 1e6));
	return cudaGetLastError();
}

extern "C" void cc_launch_hold_release(void)
{
	if (word_host) __atomic_store_n(&word_host[0], generation, __ATOMIC_RELEASE);
}

extern "C" int cc_launch_hold_gave_up(void)
{
	return word_host && __atomic_load_n(&word_host[1], __ATOMIC_ACQUIRE) == generation;
}
