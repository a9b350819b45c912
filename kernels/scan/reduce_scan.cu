/* reduce_scan: reduce-then-scan, three kernels that read the input twice and write the output once.
 * Pass 1 (reduce_tiles) only adds up each tile of BLOCK * ITEMS inputs into sums[b]: it reads and
 * writes nothing else. Pass 2 (scan_offsets, common.cuh) turns the sums into each tile's offset.
 * Pass 3 (scan_tiles_offset) reads the tile again, scans it as the shuffle stage does (a run of ITEMS
 * per thread in registers, warp shuffles over the run totals) and writes y with the tile's offset
 * already added, so no pass reads y back.
 * BLOCK: a power of two from 32 to 1024; ITEMS: 4, 8, 16 or 32. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 16
#endif

extern "C" __global__ void __launch_bounds__(BLOCK) reduce_tiles(const int *__restrict__ x, int *__restrict__ sums,
                                                                 long long n)
{
	__shared__ int warp_tot[32];
	const long long first = (long long)blockIdx.x * (BLOCK * ITEMS) + (long long)threadIdx.x * ITEMS;
	int v[ITEMS];
	load_run<ITEMS>(x, first, n, v);
	int s = 0;
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		s += v[k];
	s = warp_all_sum(s);
	if ((threadIdx.x & 31) == 0)
		warp_tot[threadIdx.x >> 5] = s;
	__syncthreads();
	if (threadIdx.x < 32) {
		s = threadIdx.x < BLOCK / 32 ? warp_tot[threadIdx.x] : 0;
		s = warp_all_sum(s);
		if (threadIdx.x == 0)
			sums[blockIdx.x] = s;
	}
}

extern "C" __global__ void __launch_bounds__(BLOCK) scan_tiles_offset(const int *__restrict__ x, int *__restrict__ y,
                                                                      const int *__restrict__ offsets, long long n)
{
	__shared__ int warp_tot[32];
	const long long first = (long long)blockIdx.x * (BLOCK * ITEMS) + (long long)threadIdx.x * ITEMS;
	int v[ITEMS];
	load_run<ITEMS>(x, first, n, v);
	const int mine = run_exclusive<ITEMS>(v);
	int total;
	const int before = block_exclusive_scan(mine, warp_tot, total) + offsets[blockIdx.x];
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		v[k] += before;
	store_run<ITEMS>(y, first, n, v);
}
