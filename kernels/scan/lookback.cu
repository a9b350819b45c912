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
 * STRIPED 1 loads and stores through shared memory: each warp reads its 32 * ITEMS inputs as int4s
 * that lie side by side (lane l the l-th int4 of each 512-byte row, one 512-byte access per
 * instruction), writes them to its part of a shared buffer and reads back its run; the outputs go
 * the same way in reverse. STRIPED 0 reads each thread's run straight from global memory (lanes 4 *
 * ITEMS bytes apart in each instruction). MINB: blocks per SM the compiler must fit
 * (__launch_bounds__); SLEEP: nanoseconds warp 0 backs off between polls of a descriptor not yet
 * published (0: spin). TICKET 0: the tile is blockIdx.x (no ticket; trusts the hardware to start
 * blocks in index order, as CUB does). STREAM: streaming cache hints, 1 on the loads (__ldcs), 2 on the
 * stores (__stcs), 3 both: x and y are touched once, so their lines are the first L2 evicts.
 * BLOCK: a power of two from 32 to 1024; ITEMS: 4, 8, 16 or 32.
 * TMA 1 (Hopper on, ITEMS 32, BLOCK up to 256; the kernel at the end of this file) moves the tile
 * with the tensor memory accelerator instead of the threads' loads and stores. x and y are seen as
 * tensors of n / 32 rows of 32 ints (the lesson's tensor maps), and a tile is a box of BLOCK rows,
 * one row (128 bytes) a thread. The thread that takes the ticket asks TMA for the box at once; it
 * lands in shared memory with the 128-byte swizzle (chunk c of row r, 16 bytes, at chunk c ^ (r & 7))
 * and is counted on an mbarrier that every thread waits on. Each thread adds up its row there (int4
 * reads at the swizzled chunk: the 8 threads of each quarter-warp hit 8 different chunks, so no bank
 * conflicts), the block scans the row totals and warp 0 looks back as above; then each thread scans
 * its row with the prefix and writes it back in place, and one thread hands the box to TMA for y and
 * waits until it has been read out of shared memory before the block ends. The tile lives in shared
 * memory, not in registers. TMA covers whole rows only: the n % 32 inputs after the last whole row
 * (all of them below n = 32, where the maps are placeholders) are read and written by their thread
 * with plain loads and stores. STREAM's hints become an L2 evict-first policy on the TMA copies;
 * STRIPED does not apply. */
#include "common.cuh"

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 32
#endif

#ifndef STRIPED
#define STRIPED 1
#endif
#ifndef MINB
#define MINB 4
#endif
#ifndef SLEEP
#define SLEEP 0
#endif
#ifndef TICKET
#define TICKET 1
#endif
#ifndef STREAM
#define STREAM 0
#endif
#ifndef TMA
#define TMA 0
#endif
#if TMA
#include "sm90.cuh"
#endif

/* The warp's 32 * ITEMS values between global memory (g, the warp's first element, all below n) and
 * its runs in registers, through buf (the warp's 32 * ITEMS + 32 ints of shared memory: a pad word
 * after every 32 keeps the run reads free of bank conflicts). */
__device__ __forceinline__ int padded(int i) { return i + (i >> 5); }

__device__ __forceinline__ void load_striped(const int *__restrict__ g, int *buf, int (&v)[ITEMS])
{
	const int lane = threadIdx.x & 31;
	const int4 *g4 = reinterpret_cast<const int4 *>(g);
	int4 q[ITEMS / 4];
#pragma unroll
	for (int k = 0; k < ITEMS / 4; k++)
		q[k] = (STREAM & 1) ? __ldcs(g4 + k * 32 + lane) : g4[k * 32 + lane];
#pragma unroll
	for (int k = 0; k < ITEMS / 4; k++) {
		const int i = 4 * (k * 32 + lane);
		buf[padded(i)] = q[k].x;
		buf[padded(i + 1)] = q[k].y;
		buf[padded(i + 2)] = q[k].z;
		buf[padded(i + 3)] = q[k].w;
	}
	__syncwarp();
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		v[k] = buf[padded(lane * ITEMS + k)];
	__syncwarp();
}

__device__ __forceinline__ void store_striped(int *__restrict__ g, int *buf, const int (&v)[ITEMS])
{
	const int lane = threadIdx.x & 31;
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		buf[padded(lane * ITEMS + k)] = v[k];
	__syncwarp();
	int4 *g4 = reinterpret_cast<int4 *>(g);
#pragma unroll
	for (int k = 0; k < ITEMS / 4; k++) {
		const int i = 4 * (k * 32 + lane);
		const int4 q = make_int4(buf[padded(i)], buf[padded(i + 1)], buf[padded(i + 2)], buf[padded(i + 3)]);
		if (STREAM & 2)
			__stcs(g4 + k * 32 + lane, q);
		else
			g4[k * 32 + lane] = q;
	}
}

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

/* Warp 0 (all 32 lanes) for tile `tile` whose aggregate is total: publishes the aggregate, looks
 * back for the sum of every tile before it, publishes its inclusive prefix and returns that sum (in
 * every lane). */
__device__ __forceinline__ int look_back(unsigned long long *desc, long long tile, int total)
{
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
			while (__any_sync(0xffffffffu, (d >> 32) == 0)) {
				if (SLEEP)
					__nanosleep(SLEEP);
				if ((d >> 32) == 0)
					d = peek(desc + j);
			}
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
	return prefix;
}

#if !TMA
extern "C" __global__ void __launch_bounds__(BLOCK, MINB) scan_lookback(const int *__restrict__ x, int *__restrict__ y,
                                                                  unsigned long long *state, long long n)
{
	__shared__ int warp_tot[32];
	__shared__ long long s_tile;
	__shared__ int s_prefix;
	unsigned long long *const desc = state + 1;
	long long tile = blockIdx.x;
	if (TICKET) {
		if (threadIdx.x == 0)
			s_tile = (long long)atomicAdd(state, 1ull);
		__syncthreads();
		tile = s_tile;
	}
	const long long first = tile * (BLOCK * ITEMS) + (long long)threadIdx.x * ITEMS;
	const long long warp_first = tile * (BLOCK * ITEMS) + (long long)(threadIdx.x & ~31) * ITEMS;
	const bool whole = STRIPED && warp_first + 32 * ITEMS <= n;   /* the same in every lane of the warp */
	__shared__ int stage_buf[STRIPED ? (BLOCK / 32) * (32 * ITEMS + 32) : 1];
	int *const wbuf = stage_buf + (STRIPED ? (threadIdx.x >> 5) * (32 * ITEMS + 32) : 0);
	int v[ITEMS];
	if (whole)
		load_striped(x + warp_first, wbuf, v);
	else
		load_run<ITEMS>(x, first, n, v);
	const int mine = run_exclusive<ITEMS>(v);
	int total;
	int before = block_exclusive_scan(mine, warp_tot, total);

	if (threadIdx.x < 32) {
		const int prefix = look_back(desc, tile, total);
		if (threadIdx.x == 0)
			s_prefix = prefix;
	}
	__syncthreads();
	before += s_prefix;
#pragma unroll
	for (int k = 0; k < ITEMS; k++)
		v[k] += before;
	if (whole)
		store_striped(y + warp_first, wbuf, v);
	else
		store_run<ITEMS>(y, first, n, v);
}
#else
/* ---- TMA 1: the tile moved by the tensor memory accelerator ---- */

#define ROW_BYTES 128   /* a row: 32 ints, one thread's run, 8 chunks of 16 bytes */

/* An L2 policy that evicts first the lines these copies bring in (STREAM, as __ldcs and __stcs do). */
__device__ __forceinline__ unsigned long long evict_first()
{
	unsigned long long policy;
	asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(policy));
	return policy;
}

/* The box of BLOCK rows from row `row` of x's map into shared memory at dst, its bytes counted on bar. */
__device__ __forceinline__ void load_rows(unsigned dst, const cc_tensormap *map, int row, unsigned bar)
{
	if (STREAM & 1)
		asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
		             " [%0], [%1, {%2, %3}], [%4], %5;\n"
		             ::"r"(dst), "l"(map), "r"(0), "r"(row), "r"(bar), "l"(evict_first()) : "memory");
	else
		tma_load_2d(dst, map, 0, row, bar);
}

/* The box at src to rows from `row` of y's map; rows past the map's end are not written. */
__device__ __forceinline__ void store_rows(const cc_tensormap *map, unsigned src, int row)
{
	if (STREAM & 2)
		asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint [%0, {%1, %2}], [%3], %4;\n"
		             ::"l"(map), "r"(0), "r"(row), "r"(src), "l"(evict_first()) : "memory");
	else
		tma_store_2d(map, src, 0, row);
}

/* tmx, tmy: x and y as n / 32 rows of 32 ints, boxes of 32 x BLOCK, 128-byte swizzle (placeholders
 * when n < 32: no row is whole and the kernel does not touch them). */
extern "C" __global__ void __launch_bounds__(BLOCK, MINB) scan_lookback(const int *__restrict__ x, int *__restrict__ y,
                                                                  unsigned long long *state, long long n,
                                                                  const __grid_constant__ cc_tensormap tmx,
                                                                  const __grid_constant__ cc_tensormap tmy)
{
	/* the tile: row r (thread r) at rows + 8 r, its chunk c at 8 r + (c ^ (r & 7)); the swizzle
	 * repeats every 8 rows, 1024 bytes, hence the alignment */
	__shared__ __align__(1024) int4 rows[BLOCK * (ROW_BYTES / 16)];
	__shared__ __align__(8) unsigned long long full;   /* the mbarrier the load completes */
	__shared__ int warp_tot[32];
	__shared__ long long s_tile;
	__shared__ int s_prefix;
	unsigned long long *const desc = state + 1;
	const long long nrows = n / 32;   /* the rows TMA covers */
	const unsigned sbuf = smem_u32(rows), sfull = smem_u32(&full);
	if (threadIdx.x == 0) {
		const long long t = TICKET ? (long long)atomicAdd(state, 1ull) : (long long)blockIdx.x;
		if (t * BLOCK < nrows) {
			mbar_init(sfull, 1);
			mbar_fence_init();
			mbar_expect_tx(sfull, BLOCK * ROW_BYTES);   /* a box partly past the map's end still counts every byte (zeros) */
			load_rows(sbuf, &tmx, (int)(t * BLOCK), sfull);
		}
		s_tile = t;
	}
	__syncthreads();
	const long long tile = s_tile, row0 = tile * BLOCK, first = (row0 + threadIdx.x) * 32;
	const bool boxed = row0 < nrows;   /* the same in every thread: the tile has whole rows, TMA moves them */
	const int left = (int)max(0LL, min(32LL, n - first));   /* this row's inputs below n */
	const bool whole = left == 32;   /* the row is in the tensor maps */
	const int sw = ((sbuf >> 7) + threadIdx.x) & 7;   /* TMA's swizzle: address bits 4-6 ^= bits 7-9 (= r & 7 here) */
	int4 *const mine = rows + threadIdx.x * (ROW_BYTES / 16);
	if (boxed)
		mbar_wait(sfull, 0);
	if (!whole) {   /* past the last whole row (at most one thread has inputs here): by hand, zeros past n */
#pragma unroll 1
		for (int k = 0; k < 32; k++)
			reinterpret_cast<int *>(mine + ((k >> 2) ^ sw))[k & 3] = k < left ? x[first + k] : 0;
	}
	int run = 0;
#pragma unroll
	for (int c = 0; c < 8; c++) {
		const int4 q = mine[c ^ sw];
		run += (q.x + q.y) + (q.z + q.w);
	}
	int total;
	int before = block_exclusive_scan(run, warp_tot, total);
	if (threadIdx.x < 32) {
		const int prefix = look_back(desc, tile, total);
		if (threadIdx.x == 0)
			s_prefix = prefix;
	}
	__syncthreads();
	before += s_prefix;
	if (whole) {   /* the row scanned in place, for TMA to store */
#pragma unroll
		for (int c = 0; c < 8; c++) {
			const int4 q = mine[c ^ sw];
			mine[c ^ sw] = make_int4(before, before + q.x, before + q.x + q.y, before + q.x + q.y + q.z);
			before += (q.x + q.y) + (q.z + q.w);
		}
	} else {
#pragma unroll 1
		for (int k = 0; k < 32; k++) {
			const int v = reinterpret_cast<const int *>(mine + ((k >> 2) ^ sw))[k & 3];
			if (k < left)
				y[first + k] = before;
			before += v;
		}
	}
	if (boxed) {
		fence_async_shared();   /* this thread's writes to the tile, seen by TMA */
		__syncthreads();
		if (threadIdx.x == 0) {
			store_rows(&tmy, sbuf, (int)row0);
			tma_store_commit();
			tma_store_wait_read();   /* the block's shared memory must outlive TMA's reads of it */
		}
	}
}
#endif
