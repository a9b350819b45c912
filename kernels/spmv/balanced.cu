/* balanced: an even split of the nonzeros, not of the rows. Block b takes nonzeros [b * TILE,
 * (b + 1) * TILE) with TILE = BLOCK * ITEMS, whatever rows they belong to, so every block does the
 * same work however the row lengths are spread. Thread 0 finds the first and last row of the tile by
 * binary search in row_ptr. The block multiplies its TILE values by their x into shared memory (each
 * thread ITEMS products, BLOCK apart, so the loads are coalesced), then each thread adds up whole
 * rows of the tile, rows first, first + BLOCK, ...: a row that lies wholly in the tile is written to
 * y, a row cut by the tile's edge adds its part with atomicAdd. A memset step zeroes y first for
 * those atomics (and for empty rows, which no tile owns). BLOCK: threads per block; ITEMS: nonzeros
 * per thread. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif
#define TILE (BLOCK * ITEMS)

extern "C" __global__ void __launch_bounds__(BLOCK) spmv_balanced(const int *__restrict__ row_ptr, const int *__restrict__ col,
                                                                  const float *__restrict__ val, const float *__restrict__ x,
                                                                  float *__restrict__ y, int rows, int nnz)
{
	__shared__ float prod[TILE];
	__shared__ int first_row, last_row;
	const int first = blockIdx.x * TILE, end = min(first + TILE, nnz);
	if (threadIdx.x == 0) {
		first_row = row_of(row_ptr, 0, rows - 1, first);
		last_row = row_of(row_ptr, first_row, rows - 1, end - 1);
	}
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const int j = first + k * BLOCK + threadIdx.x;
		if (j < end) prod[k * BLOCK + threadIdx.x] = val[j] * x[col[j]];
	}
	__syncthreads();
	for (int r = first_row + threadIdx.x; r <= last_row; r += BLOCK) {
		const int rs = row_ptr[r], re = row_ptr[r + 1];
		const int a = max(rs, first), b = min(re, end);
		float sum = 0.f;
		for (int j = a; j < b; j++) sum += prod[j - first];
		if (rs >= first && re <= end) y[r] = sum;   // the whole row is ours
		else if (b > a) atomicAdd(&y[r], sum);     // a piece of a row that other tiles share
	}
}
