// What every SpMV stage shares: the matrix is CSR with 32-bit indices, rows x cols, nnz nonzeros.
//   row_ptr[r] .. row_ptr[r + 1]: the positions of row r's nonzeros in col and val (row_ptr[rows] = nnz);
//   col[j]: the column of nonzero j (ascending within a row); val[j]: its value;
//   x: cols floats, y: rows floats, y[r] = sum over row r's nonzeros of val[j] * x[col[j]].
#ifndef SPMV_COMMON_CUH
#define SPMV_COMMON_CUH

// The sum of v over the 32 lanes of a warp, in every lane.
__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
	for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

// The last r in [lo, hi] with row_ptr[r] <= j: the row that holds nonzero j (skipping empty rows
// that start at j too, since an empty row holds nothing).
__device__ __forceinline__ int row_of(const int *__restrict__ row_ptr, int lo, int hi, int j)
{
	while (lo < hi) {
		const int mid = lo + (hi - lo + 1) / 2;
		if (__ldg(&row_ptr[mid]) <= j) lo = mid;
		else hi = mid - 1;
	}
	return lo;
}

// row_of by a whole warp: each step the 32 lanes probe 32 points of [lo, hi] at once and a ballot
// keeps the piece between the last probe at or below j and the first above it, so 2^21 rows take 5
// dependent loads instead of 21. Every lane of the warp must call it; every lane gets the answer.
__device__ __forceinline__ int row_of_warp(const int *__restrict__ row_ptr, int lo, int hi, int j)
{
	const int lane = threadIdx.x % 32;
	while (lo < hi) {   // row_ptr[lo] <= j holds throughout
		const int p = lo + (int)((long long)(hi - lo) * (lane + 1) / 32);   // ascending, p of lane 31 is hi
		const unsigned below = __ballot_sync(0xffffffffu, __ldg(&row_ptr[p]) <= j);
		const int n = __popc(below);   // the probes at or below j are lanes 0 .. n-1 (row_ptr ascends)
		const int nlo = n ? __shfl_sync(0xffffffffu, p, n - 1) : lo;
		const int nhi = n < 32 ? __shfl_sync(0xffffffffu, p, n < 32 ? n : 31) - 1 : hi;
		lo = nlo; hi = nhi;
	}
	return lo;
}
#endif
