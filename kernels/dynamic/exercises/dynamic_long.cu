/* Exercise dynamic_long: child grids for the long sequences only.
 *
 * This starter is the first stage's kernel under this stage's name: block s walks its whole sequence
 * alone. It is right, but the few long sequences (one in 64, about a million elements each at the
 * lesson's size) each keep one SM busy long after the others have finished their short ones.
 *
 * What to do: when the block's sequence has at least SPLIT elements, let one thread launch a child
 * grid for it from the device, and let the block stop there; keep the short sequences as they are.
 *   1. the child kernel is seq_child (child.cuh, included below); child_blocks(len) is its grid size,
 *      BLOCK its block size; it takes the sequence's own x, y (offset by begin), len and weight;
 *   2. launch into cudaStreamFireAndForget, so that the children run side by side;
 *   3. a launch can fail (cudaGetLastError() after it says so): then the block must do the sequence.
 *
 * Tunables (-D): BLOCK, ITEMS (batch.cuh), SPLIT. The stage compiles with -rdc=true and cudaclimb links
 * the device runtime. Passing: right at every size, and at least 0.9x the speed of the stage's own
 * kernel. */
#include "child.cuh"
#ifndef SPLIT
#define SPLIT 65536
#endif

extern "C" __global__ void __launch_bounds__(BLOCK) dynamic_long(const float *__restrict__ x, const float *__restrict__ w, float *__restrict__ y,
                                                               long long short_len, long long long_len)
{
	const long long s = blockIdx.x;
	const long long begin = seq_begin(s, short_len, long_len), len = seq_begin(s + 1, short_len, long_len) - begin;
	const float ws = w[s];
	/* TODO: a sequence of SPLIT elements or more: launch a child grid for it (one thread) and return */
	for (long long p0 = 0; p0 < len; p0 += BLOCK * ITEMS)
		seq_tile(x + begin, y + begin, len, p0, ws);
}
