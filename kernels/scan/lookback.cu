/* lookback: the whole scan in one pass, with decoupled look-back. Each block takes a ticket from
 * state[0] (atomicAdd) and scans tile number `ticket`, so tiles are handed out in the order blocks
 * start: every tile before this one belongs to a block that is already running or done, which is
 * what makes waiting for it safe whatever order the hardware starts blocks in.
 * The block scans its tile as the reduce_scan stage does (a run of ITEMS inputs per thread in
 * registers, warp shuffles over the run totals) and knows its tile's total, the aggregate. Warp 0
 * then publishes it in the tile's descriptor state[1 + tile], one 64-bit word: a status in the high
 * half (0 nothing yet, 1 aggregate, 2 inclusive prefix: everything up to and including this tile)
 * and the value in the low half, written with one store so a reader never sees one without the
 * other. It looks back over the 32 tiles before it at once, one lane per tile (lane l reads tile
 * tile - 1 - l), waiting until each has published something. Lanes up to the nearest tile with a
 * prefix add their values and the look-back ends; if none of the 32 has a prefix, the 32 aggregates
 * are added and the window moves 32 tiles further back. The block publishes its own inclusive
 * prefix (status 2), so later tiles stop here, then adds the prefix before its tile and writes y.
 * Each input is read once and each output written once. The stage's memset zeroes state before
 * every launch (the ticket counter and every descriptor).
 * BLOCK: a power of two from 32 to 1024; ITEMS: 4, 8, 16 or 32. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 16
#endif

#define STATUS_AGGREGATE 1ull
#define STATUS_PREFIX 2ull

__device__ __forceinline__ void publish(unsigned long long *p, unsigned long long status, int value)
{
	*(volatile unsigned long long *)p = (status << 32) | (unsigned int)value;
}

__device__ __forceinline__ unsigned long long peek(const unsigned long long *p)
{
	return *(const volatile unsigned long long *)p;
}

extern "C" __global__ void __launch_bounds__(BLOCK) scan_lookback(const int *__restrict__ x, int *__restrict__ y,
                                                                  unsigned long long *state, long long n)
{
	__shared__ int warp_tot[32];
	__shared__ long long s_tile;
	__shared__ int s_prefix;
	unsigned long long *const desc = state + 1;
	if (threadIdx.x == 0)
		s_tile = (long long)atomicAdd(state, 1ull);
	__syncthreads();
	const long long tile = s_tile;
	const long long first = tile * (BLOCK * ITEMS) + (long long)threadIdx.x * ITEMS;
	int v[ITEMS];
	load_run<ITEMS>(x, first, n, v);
	const int mine = run_exclusive<ITEMS>(v);
	int total;
	int before = block_exclusive_scan(mine, warp_tot, total);

	if (threadIdx.x < 32) {
		const int lane = threadIdx.x;
		int prefix = 0;
		if (tile == 0) {
			if (lane == 0)
				publish(desc, STATUS_PREFIX, total);
		} else {
			if (lane == 0)
				publish(desc + tile, STATUS_AGGREGATE, total);
			for (long long end = tile - 1;; end -= 32) {
				const long long j = end - lane;
				unsigned long long d = j >= 0 ? peek(desc + j) : STATUS_PREFIX << 32;
				while (__any_sync(0xffffffffu, (d >> 32) == 0))
					if ((d >> 32) == 0)
						d = peek(desc + j);
				const unsigned int has_prefix = __ballot_sync(0xffffffffu, (d >> 32) == STATUS_PREFIX);
				const int value = (int)(unsigned int)d;
				if (has_prefix) {
					const int nearest = __ffs(has_prefix) - 1;
					prefix += warp_all_sum(lane <= nearest ? value : 0);
					break;
				}
				prefix += warp_all_sum(value);
			}
			if (lane == 0)
				publish(desc + tile, STATUS_PREFIX, prefix + total);
		}
		if (lane == 0)
			s_prefix = prefix;
	}
	__syncthreads();
	before += s_prefix;
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		v[k] += before;
	store_run<ITEMS>(y, first, n, v);
}
