/* balanced: an even split of the nonzeros, not of the rows. Block b takes nonzeros [b * TILE,
 * (b + 1) * TILE) with TILE = BLOCK * ITEMS, whatever rows they belong to, so every block does the
 * same work however the row lengths are spread. The block finds the first and last row of the tile
 * by a search in row_ptr. It multiplies its TILE values by their x into shared memory (each thread
 * ITEMS products, BLOCK apart, so the loads are coalesced), then adds up the tile's rows: a row that
 * lies wholly in the tile is written to y, a row cut by the tile's edge adds its part with atomicAdd.
 * A memset step zeroes y first for those atomics (and for empty rows, which no tile owns).
 * BLOCK: threads per block; ITEMS: nonzeros per thread.
 * SEARCH 1: warp 0 finds the first row and warp 1 the last, 32 probes a step (5 dependent loads at
 *        2^21 rows); 0: thread 0 finds both by binary search (21 dependent loads, twice). */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif
#ifndef SEARCH
#define SEARCH 1
#endif
#define TILE (BLOCK * ITEMS)

extern "C" __global__ void __launch_bounds__(BLOCK) spmv_balanced(const int *__restrict__ row_ptr, const int *__restrict__ col,
                                                                  const float *__restrict__ val, const float *__restrict__ x,
                                                                  float *__restrict__ y, int rows, int nnz)
{
	__shared__ float prod[TILE];
	__shared__ int first_row, last_row;
	const int first = blockIdx.x * TILE, end = min(first + TILE, nnz);
#if SEARCH
	if (threadIdx.x < 64) {
		const int r = row_of_warp(row_ptr, 0, rows - 1, threadIdx.x < 32 ? first : end - 1);
		if (threadIdx.x == 0) first_row = r;
		if (threadIdx.x == 32) last_row = r;
	}
#else
	if (threadIdx.x == 0) {
		first_row = row_of(row_ptr, 0, rows - 1, first);
		last_row = row_of(row_ptr, first_row, rows - 1, end - 1);
	}
#endif
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
