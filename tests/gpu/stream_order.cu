// Does a copy on a created (blocking) stream wait for a copy into pinned host memory made just before
// on the legacy stream? The worker relies on it (a lesson's stream-0 step, then steps on streams 1..):
// tests/fixtures/conv1d's pipeline stage was sometimes wrong in its first chunk, the first reader of
// a pinned buffer that a stream-0 copy fills. Each trial, in a process like the worker's:
//   host memset of h to 0 (pinned) -> memset of x on stream 0 to a new byte -> copy x -> h on stream 0
//   -> copy h -> d on stream S -> wait -> d compared with the byte.
// Variants: S a fresh cudaStreamCreate'd stream each trial (as each worker's first run), the same
// stream kept, and the fresh stream with an explicit event (record on 0, wait on S).
// Prints one line per variant and size: trials, wrong trials; exits 1 when the explicit-event
// variant is ever wrong (the worker's fix relies on it), 0 otherwise.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(2); } } while (0)

enum { FRESH, KEPT, EVENT, NVARIANTS };
static const char *names[] = { "fresh stream, legacy order", "kept stream, legacy order", "fresh stream, explicit event" };

int main(int argc, char **argv)
{
	int trials = argc > 1 ? atoi(argv[1]) : 300;
	size_t sizes[] = { 4, 28, 508, 4096, 65536, 1 << 20 };
	size_t maxb = 1 << 20;
	unsigned char *h, *x, *d, *r = (unsigned char *)malloc(maxb);
	CK(cudaMallocHost((void **)&h, maxb));
	CK(cudaMalloc((void **)&x, maxb));
	CK(cudaMalloc((void **)&d, maxb));
	cudaStream_t kept;
	cudaEvent_t ev;
	CK(cudaStreamCreate(&kept));
	CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
	int event_bad = 0;
	for (int v = 0; v < NVARIANTS; v++) {
		for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
			size_t b = sizes[si];
			int bad = 0;
			for (int t = 0; t < trials; t++) {
				int byte = 1 + (t + v * 7 + (int)si) % 250;
				cudaStream_t s = kept;
				if (v != KEPT) CK(cudaStreamCreate(&s));
				CK(cudaDeviceSynchronize());
				memset(h, 0, b);
				CK(cudaMemsetAsync(d, 0, b, 0));
				CK(cudaMemsetAsync(x, byte, b, 0));
				CK(cudaMemcpyAsync(h, x, b, cudaMemcpyDeviceToHost, 0));
				if (v == EVENT) { CK(cudaEventRecord(ev, 0)); CK(cudaStreamWaitEvent(s, ev, 0)); }
				CK(cudaMemcpyAsync(d, h, b, cudaMemcpyHostToDevice, s));
				CK(cudaStreamSynchronize(s));
				CK(cudaMemcpy(r, d, b, cudaMemcpyDeviceToHost));
				size_t k = 0;
				while (k < b && r[k] == byte) k++;
				if (k < b) bad++;
				if (v != KEPT) CK(cudaStreamDestroy(s));
			}
			printf("%-30s %8zu B  %5d trials  %5d wrong\n", names[v], b, trials, bad);
			if (v == EVENT) event_bad += bad;
		}
	}
	return event_bad ? 1 : 0;
}
