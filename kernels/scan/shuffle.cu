/* shuffle: pass 1 of 3 of scan-then-propagate, with the block scan in registers and warp shuffles.
 * Each thread owns ITEMS consecutive inputs of the tile (BLOCK * ITEMS of them), read as ITEMS / 4
 * int4 loads. It scans its run in registers (a running sum: no barrier, no shared memory), the block
 * scans the BLOCK run totals with __shfl_up_sync (a scan inside each warp, then one warp scans the
 * warp totals: two barriers in all), and each thread adds what comes before its run. The tile's
 * exclusive scan goes to y and its total to sums[b]; scan_offsets and add_offsets (common.cuh) follow.
 * BLOCK: a power of two from 32 to 1024; ITEMS: 4, 8, 16 or 32 (the tile must be a power of two). */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 16
#endif

extern "C" __global__ void __launch_bounds__(BLOCK) scan_tiles(const int *__restrict__ x, int *__restrict__ y,
                                                               int *__restrict__ sums, long long n)
{
	__shared__ int warp_tot[32];
	const long long first = (long long)blockIdx.x * (BLOCK * ITEMS) + (long long)threadIdx.x * ITEMS;
	int v[ITEMS];
	load_run<ITEMS>(x, first, n, v);
	const int mine = run_exclusive<ITEMS>(v);
	int total;
	const int before = block_exclusive_scan(mine, warp_tot, total);
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		v[k] += before;
	store_run<ITEMS>(y, first, n, v);
	if (threadIdx.x == 0)
		sums[blockIdx.x] = total;
}
