/* Exercise shuffle: the block scan in registers and warp shuffles.
 *
 * Everything is written, and the result is wrong. Each thread loads ITEMS consecutive inputs (int4
 * loads), scans them in its registers, and the block scans the BLOCK run totals: a scan inside each
 * warp with __shfl_up_sync, the warps' totals in shared memory, one warp scanning those, and each
 * thread adding what comes before it. The exclusive scan of the tile goes to y, its total to sums.
 * Passes 2 and 3 (scan_offsets and add_offsets, in common.cuh) are as in the stage.
 *
 * What to do:
 *   1. Run `cudaclimb try scan/shuffle` on this file and read which element is wrong first.
 *   2. Find the bug in warp_scan (TODO below) and fix it. One line changes.
 *
 * Tunables (-D): BLOCK (a power of two from 32 to 1024), ITEMS (4, 8, 16 or 32).
 * Passing: exact at every size, and at least 0.9x the speed of the stage's own kernel. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 16
#endif

/* Inclusive scan over the 32 lanes of a warp: lane l should end with the sum of lanes 0..l.
 * TODO: this is wrong for some lanes. Which lanes does __shfl_up_sync give nothing from below? */
__device__ __forceinline__ int warp_scan(int v)
{
#pragma unroll
	for (int d = 1; d < 32; d <<= 1) {
		const int below = __shfl_up_sync(0xffffffffu, v, d);
		v += below;
	}
	return v;
}

extern "C" __global__ void __launch_bounds__(BLOCK) scan_tiles(const int *__restrict__ x, int *__restrict__ y,
                                                               int *__restrict__ sums, long long n)
{
	__shared__ int warp_tot[32];
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	const long long first = (long long)blockIdx.x * (BLOCK * ITEMS) + (long long)threadIdx.x * ITEMS;

	int v[ITEMS];
	load_run<ITEMS>(x, first, n, v);   /* common.cuh: int4 loads, zeros past n */
	int mine = 0;                      /* the run in registers: v[k] becomes the sum of v[0..k-1] */
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const int a = v[k];
		v[k] = mine;
		mine += a;
	}

	const int inclusive = warp_scan(mine);
	if (lane == 31)
		warp_tot[warp] = inclusive;
	__syncthreads();
	if (warp == 0) {
		int w = lane < BLOCK / 32 ? warp_tot[lane] : 0;
		w = warp_scan(w);
		if (lane < BLOCK / 32)
			warp_tot[lane] = w;    /* the sum of warps 0..lane */
	}
	__syncthreads();
	const int before = (warp ? warp_tot[warp - 1] : 0) + inclusive - mine;

#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		v[k] += before;
	store_run<ITEMS>(y, first, n, v);
	if (threadIdx.x == 0)
		sums[blockIdx.x] = warp_tot[BLOCK / 32 - 1];
}
