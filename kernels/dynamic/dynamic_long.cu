/* dynamic_long: dynamic parallelism where it pays. One block per sequence as in per_block, but a
 * block whose sequence has at least SPLIT elements launches a child grid for it (one launch, by
 * thread 0, into cudaStreamFireAndForget) and ends; the short sequences, nearly all of them, are done
 * in place, with no launch. If the launch fails (the device runtime's pool of pending launches is
 * full) the block does the sequence itself. Needs -rdc=true (the stage's options).
 * Tunables (-D): BLOCK, ITEMS (batch.cuh), SPLIT (the length from which a sequence gets a child grid). */
#include "child.cuh"
#ifndef SPLIT
#define SPLIT 65536
#endif

extern "C" __global__ void __launch_bounds__(BLOCK) dynamic_long(const float *__restrict__ x, const float *__restrict__ w, float *__restrict__ y,
                                                               long long short_len, long long long_len)
{
	__shared__ int launched;
	const long long s = blockIdx.x;
	const long long begin = seq_begin(s, short_len, long_len), len = seq_begin(s + 1, short_len, long_len) - begin;
	const float ws = w[s];
	if (len >= SPLIT) {   /* the same for the whole block: the barrier below is reached by all or none */
		if (threadIdx.x == 0) {
			seq_child<<<child_blocks(len), BLOCK, 0, cudaStreamFireAndForget>>>(x + begin, y + begin, len, ws);
			launched = cudaGetLastError() == cudaSuccess;
		}
		__syncthreads();
		if (launched) return;
	}
	for (long long p0 = 0; p0 < len; p0 += BLOCK * ITEMS)
		seq_tile(x + begin, y + begin, len, p0, ws);
}
