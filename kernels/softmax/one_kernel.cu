// Softmax in one kernel, one block per row: the online pass over the row gives its maximum and sum
// (as in the online stage), the block merges them, and the same threads then read the row again
// and write y. The second read is of the 4 KB the block has just read: it comes from the L1 or L2
// cache, not from device memory. No maximum or sum is stored, and no second kernel is launched.
//
// Tunables (-D): BLOCK (threads per block, a multiple of 32).
#include "common.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK) softmax_block(const float *__restrict__ x, float *__restrict__ y, int cols)
{
	const long long base = (long long)blockIdx.x * cols;
	const float *row = x + base;
	float m, s;
	thread_online(row, cols, m, s);
	block_online(m, s);
	for (int j = threadIdx.x; j < cols; j += BLOCK) y[base + j] = expf(row[j] - m) / s;
}
