/* Exercise: CSR with one warp per row. The loop is written: each lane adds every 32nd nonzero of the
 * warp's row into its own partial sum. What is missing is the end: the row's value is the sum of all
 * 32 partials, and as it stands lane 0 writes only its own. TODO: add the partials across the warp
 * (without shared memory) before lane 0 writes y[r]. */
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void __launch_bounds__(BLOCK) spmv_vector(const int *__restrict__ row_ptr, const int *__restrict__ col,
                                                                const float *__restrict__ val, const float *__restrict__ x,
                                                                float *__restrict__ y, int rows)
{
	const int r = blockIdx.x * (BLOCK / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
	if (r >= rows) return;
	const int start = row_ptr[r], end = row_ptr[r + 1];
	float sum = 0.f;
	for (int j = start + lane; j < end; j += 32) sum += val[j] * x[col[j]];
	// TODO: the warp's 32 partial sums added together, so that lane 0 holds the row's total
	if (lane == 0) y[r] = sum;
}
