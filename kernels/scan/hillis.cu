/* hillis: pass 1 of 3 of scan-then-propagate. Block b scans its tile of BLOCK inputs (one per
 * thread) with the Hillis-Steele scheme: log2(BLOCK) steps, at step d every thread adds the value d
 * places to its left. A step reads what the step before wrote, so the values alternate between two
 * shared arrays (read one, write the other) and every step ends with a barrier. The block writes the
 * exclusive scan of its tile to y and the tile's total to sums[b]; scan_offsets (common.cuh) then
 * scans the totals and add_offsets adds each tile's offset to its outputs.
 * BLOCK: a power of two from 32 to 1024. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 512
#endif

extern "C" __global__ void scan_hillis(const int *__restrict__ x, int *__restrict__ y, int *__restrict__ sums,
                                       long long n)
{
	__shared__ int buf[2][BLOCK];
	const int t = threadIdx.x;
	const long long i = (long long)blockIdx.x * BLOCK + t;
	const int mine = i < n ? x[i] : 0;
	int from = 0;
	buf[0][t] = mine;
	__syncthreads();
	for (int d = 1; d < BLOCK; d <<= 1) {
		int v = buf[from][t];
		if (t >= d)
			v += buf[from][t - d];
		buf[from ^ 1][t] = v;
		from ^= 1;
		__syncthreads();
	}
	const int inclusive = buf[from][t];
	if (i < n)
		y[i] = inclusive - mine;   /* exclusive: everything before this element */
	if (t == BLOCK - 1)
		sums[blockIdx.x] = inclusive;
}
