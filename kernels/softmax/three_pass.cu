// Softmax in three kernels, each a pass over the whole matrix: row_max writes each row's maximum,
// row_sum reads the row again for the sum of exp(x - max), normalise reads it a third time and
// writes y. One block per row for the two reductions (each thread takes every BLOCK-th element;
// neighbouring threads read neighbouring floats); normalise is element-wise over all rows * cols.
//
// Tunables (-D): BLOCK (threads per block, a multiple of 32).
#include "common.cuh"
#include "normalise.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK) row_max(const float *__restrict__ x, float *__restrict__ mx, int cols)
{
	const float *row = x + (long long)blockIdx.x * cols;
	float m = NEG_INF;
	for (int j = threadIdx.x; j < cols; j += BLOCK) m = fmaxf(m, row[j]);
	m = block_max(m);
	if (threadIdx.x == 0) mx[blockIdx.x] = m;
}

extern "C" __global__ void __launch_bounds__(BLOCK) row_sum(const float *__restrict__ x, const float *__restrict__ mx,
                                                          float *__restrict__ sum, int cols)
{
	const float *row = x + (long long)blockIdx.x * cols;
	const float m = mx[blockIdx.x];
	float s = 0.0f;
	for (int j = threadIdx.x; j < cols; j += BLOCK) s += expf(row[j] - m);
	s = block_sum(s);
	if (threadIdx.x == 0) sum[blockIdx.x] = s;
}
