/* dynamic: dynamic parallelism, a child grid per sequence. A parent thread per sequence launches
 * seq_child (child.cuh) with as many blocks as its sequence needs, into cudaStreamFireAndForget: the
 * children of one parent block then run side by side (launched into the default stream, a block's
 * children would run one after another). Since CUDA 12 a kernel cannot wait for its children
 * (no device-side cudaDeviceSynchronize); it does not need to: a parent grid counts as finished only
 * when every grid it launched has finished, so the host sees all of the work done.
 *
 * A launch can fail, above all when the device runtime's pool of pending launches is full
 * (cudaLimitDevRuntimePendingLaunchCount); the parent thread then does the sequence itself, slowly
 * but right. Needs -rdc=true (the stage's options) and the device runtime, linked by cudaclimb. */
#include "child.cuh"

extern "C" __global__ void dynamic_parent(const float *__restrict__ x, const float *__restrict__ w, float *__restrict__ y, int seqs,
                                          long long short_len, long long long_len)
{
	const int s = blockIdx.x * blockDim.x + threadIdx.x;
	if (s >= seqs) return;
	const long long begin = seq_begin(s, short_len, long_len), len = seq_begin(s + 1, short_len, long_len) - begin;
	if (len == 0) return;   /* a grid of 0 blocks is an invalid launch */
	seq_child<<<child_blocks(len), BLOCK, 0, cudaStreamFireAndForget>>>(x + begin, y + begin, len, w[s]);
	if (cudaGetLastError() != cudaSuccess)
		for (long long p = 0; p < len; p++) y[begin + p] = seq_op(x[begin + p], w[s], p);
}
