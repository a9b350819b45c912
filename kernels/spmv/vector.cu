/* vector: CSR, one warp per row. The 32 lanes of a warp take row r's nonzeros 32 at a time (lane k
 * reads nonzeros start + k, start + k + 32, ...), so one load instruction of the warp reads 32
 * neighbouring values and 32 neighbouring column indices: 128 bytes each, coalesced. Each lane keeps
 * a partial sum; the warp adds the 32 partials with five __shfl_xor_sync steps, and lane 0 writes
 * y[r]. BLOCK: threads per block, a multiple of 32 (BLOCK / 32 rows per block). */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void __launch_bounds__(BLOCK) spmv_vector(const int *__restrict__ row_ptr, const int *__restrict__ col,
                                                                const float *__restrict__ val, const float *__restrict__ x,
                                                                float *__restrict__ y, int rows)
{
	const int r = blockIdx.x * (BLOCK / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
	if (r >= rows) return;   // the whole warp leaves together: r is the same for its 32 lanes
	const int start = row_ptr[r], end = row_ptr[r + 1];
	float sum = 0.f;
	for (int j = start + lane; j < end; j += 32) sum += val[j] * x[col[j]];
	sum = warp_sum(sum);
	if (lane == 0) y[r] = sum;
}
