// Online softmax, two kernels: row_stats reads each row once and keeps the running maximum and the
// sum of exponentials rescaled to it (online_add in common.cuh), so the maximum and the sum come
// out of one pass; the block merges its threads' pairs (online_merge). normalise, unchanged from the
// three-pass stage (normalise.cuh), reads the row again and writes y.
//
// Tunables (-D): BLOCK (threads per block, a multiple of 32).
#include "common.cuh"
#include "normalise.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK) row_stats(const float *__restrict__ x, float *__restrict__ mx,
                                                            float *__restrict__ sum, int cols)
{
	const float *row = x + (long long)blockIdx.x * cols;
	float m = NEG_INF, s = 0.0f;
	for (int j = threadIdx.x; j < cols; j += BLOCK) online_add(m, s, row[j]);
	block_online(m, s);
	if (threadIdx.x == 0) mx[blockIdx.x] = m, sum[blockIdx.x] = s;
}
