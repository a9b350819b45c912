/* scalar: CSR, one thread per row. Thread r walks row r's nonzeros in order, multiplying each value by
 * the x it names and adding into a register, then writes y[r]. The order of the additions is fixed
 * (the row's own order), which makes this stage the lesson's reference. BLOCK: threads per block. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void __launch_bounds__(BLOCK) spmv_scalar(const int *__restrict__ row_ptr, const int *__restrict__ col,
                                                                const float *__restrict__ val, const float *__restrict__ x,
                                                                float *__restrict__ y, int rows)
{
	const int r = blockIdx.x * BLOCK + threadIdx.x;
	if (r >= rows) return;
	const int end = row_ptr[r + 1];
	float sum = 0.f;
	for (int j = row_ptr[r]; j < end; j++) sum += val[j] * x[col[j]];
	y[r] = sum;
}
