// Online softmax, two kernels: row_stats reads each row once and keeps the running maximum and the
// sum of exponentials rescaled to it (thread_online in common.cuh), so the maximum and the sum come
// out of one pass; the block then combines its threads' pairs (block_online). normalise, unchanged
// from the three-pass stage (normalise.cuh), reads the row again and writes y.
//
// Tunables (-D): BLOCK (threads per block, a multiple of 32).
#include "common.cuh"
#include "normalise.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK) row_stats(const float *__restrict__ x, float *__restrict__ mx,
                                                            float *__restrict__ sum, int cols)
{
	const float *row = x + (long long)blockIdx.x * cols;
	float m, s;
	thread_online(row, cols, m, s);
	block_online(m, s);
	if (threadIdx.x == 0) mx[blockIdx.x] = m, sum[blockIdx.x] = s;
}
