/* blocked: x in shared memory (cache blocking). The balanced stage gathers x[col] from the L2, one
 * 32-byte sector for each 4-byte value, and the L2 is then the busiest unit of the GPU. Here the rows
 * are cut into blocks of rb rows, whose sums stay in shared memory, and the columns into slabs of
 * `slab` columns, few enough that two slabs of x fit in shared memory beside those sums. Block b of
 * the grid owns rows [b * rb, (b + 1) * rb) and walks the slabs in order: slab s of x is copied in
 * whole (coalesced 16-byte cp.async, the next slab's copy in flight while this one is used), and the
 * block's nonzeros whose columns lie in slab s are multiplied by x read from shared memory and added
 * to their row's sum in shared memory. At the end the block writes its sums to y, each once. The L2
 * sends each block all of x as whole lines instead of one sector a nonzero.
 *
 * That needs the nonzeros grouped by (row block, slab): blocked_pack makes that copy once per matrix,
 * as the ell stage's ell_pack does (its flag, ready[0], makes it an empty launch afterwards). Block b's
 * groups start where its rows start in the CSR, row_ptr[b * rb], in slab order; off[b * (ns + 1) + s]
 * is where group (b, s) starts (s = ns: where block b's groups end) and runs[b * ns + s] where its runs
 * start (below). An entry is a 32-bit word, the row within the block (14 bits, rb <= 16384) above the
 * column within the slab (18 bits), and its value: 8 bytes a nonzero, as CSR's column and value.
 * Within a group, the rows with at most LAYERS nonzeros in the slab come first, in layers (every such
 * row's first entry in row order, then every second one, ...), so that neighbouring entries are of
 * different rows; the longer rows follow, each in one run, which a warp adds up before its atomic. The
 * pack places the groups' entries without atomics, so their layout is the same on every run.
 * Rows of at least LONG nonzeros stay out of the groups (one would make its block the last to finish):
 * the pack lists them in chunks of CHUNK nonzeros and a third launch, spmv_long, adds each chunk up in
 * its own block, gathering x from the L2, and adds it to y[row], which spmv_blocked set to 0.
 * RB: at most this many rows a block; EARLY: entries a thread loads a round ahead. */
#ifndef RB
#define RB 16384
#endif
#include "common.cuh"
#define COL_BITS 18
#define THREADS 1024
#ifndef EARLY
#define EARLY 8   // entries a thread loads a round ahead
#endif
#ifndef LONG
#define LONG 4096   // a row with at least this many nonzeros is added up by spmv_long instead
#endif
#define CHUNK 2048   // nonzeros of a long row that one block of spmv_long adds up
#ifndef LAYERS
#define LAYERS 4   // a row with at most this many nonzeros in a slab has them spread over layers
#endif

static_assert(RB <= (1 << (32 - COL_BITS)), "a row within its block must fit the entry's 14 bits");

// Lanes of a warp holding keys in runs (a key's lanes next to each other; the valid lanes are the
// first ones): is this lane the first of its run, the lane that starts its run, and the lane that
// starts the next run or is the first invalid one (32: none).
struct run { bool head; int start, next; };
__device__ __forceinline__ run runs_of(bool valid, unsigned key)
{
	const int lane = threadIdx.x % 32;
	const unsigned prev = __shfl_up_sync(0xffffffffu, key, 1);
	const bool head = valid && (lane == 0 || prev != key);
	const unsigned heads = __ballot_sync(0xffffffffu, head), nvalid = __popc(__ballot_sync(0xffffffffu, valid));
	const unsigned bounds = heads | (nvalid < 32 ? 1u << nvalid : 0u);
	const unsigned upto = (2u << lane) - 1u;   // lanes 0 .. lane (all 32 when lane is 31)
	const unsigned later = bounds & ~upto;
	run r;
	r.head = head;
	r.start = 31 - __clz(heads & upto);
	r.next = later ? __ffs(later) - 1 : 32;
	return r;
}

// The first j in [lo, hi) with col[j] >= c (hi if none): where a row's columns reach c.
__device__ __forceinline__ int first_at_or_past(const int *__restrict__ col, int lo, int hi, int c)
{
	while (lo < hi) {
		const int mid = (lo + hi) / 2;
		if (col[mid] < c) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

// Block b groups the nonzeros of rows [b * rb, (b + 1) * rb) by slab. Within a group, the entries of
// the rows with at most LAYERS nonzeros in the slab (all of them on the regular matrix) go in layers:
// every such row's first entry, in row order, then every second entry, and so on, so neighbouring
// entries are of different rows. The rows with more follow, each in one run, in row order; add_step
// adds a run up before its atomic. Warp w owns slabs w, w + 32, ...: it takes the block's rows 32 at
// a time, finds each row's piece of the slab by binary search in its (ascending) columns, and counts
// (first pass) or places (second pass) the pieces with ballots and scans. No atomics, so the layout
// is the same on every run; thread 0 turns the counts into places between the passes.
extern "C" __global__ void __launch_bounds__(THREADS) blocked_pack(const int *__restrict__ row_ptr, const int *__restrict__ col,
                                                                  const float *__restrict__ val, unsigned *__restrict__ ent,
                                                                  float *__restrict__ bval, int *__restrict__ off,
                                                                  int *__restrict__ runs, int *__restrict__ chunk_row,
                                                                  int *__restrict__ chunk_start, unsigned *ready, int rows,
                                                                  int rb, int slab, int ns)
{
	extern __shared__ int at[];   // LAYERS + 1 a slab: the layers' and the runs' sizes, then places
	if (*(volatile unsigned *)ready) return;
	const int r0 = blockIdx.x * rb, r1 = min(r0 + rb, rows);
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	const unsigned below = (1u << lane) - 1u;   // the lanes before this one
	// The long rows stay out of the groups: spmv_long adds them up, CHUNK nonzeros a block, from the
	// list of chunks made here (ready[2] counts them).
	for (int r = r0 + threadIdx.x; r < r1; r += THREADS) {
		const int rs = row_ptr[r], len = row_ptr[r + 1] - rs;
		if (len < LONG) continue;
		const int n = (len + CHUNK - 1) / CHUNK, at0 = (int)atomicAdd(&ready[2], (unsigned)n);
		for (int i = 0; i < n; i++) { chunk_row[at0 + i] = r; chunk_start[at0 + i] = rs + i * CHUNK; }
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int s = warp; s < ns; s += THREADS / 32) {
			int *sizes = at + s * (LAYERS + 1);
			int place[LAYERS + 1];   // pass 1: the next free place of each layer and of the runs
#pragma unroll
			for (int k = 0; k <= LAYERS; k++) place[k] = pass ? sizes[k] : 0;
			for (int rr = r0; rr < r1; rr += 32) {
				const int r = rr + lane;
				int a = 0, len = 0;
				if (r < r1 && row_ptr[r + 1] - row_ptr[r] < LONG) {
					const int rs = row_ptr[r], re = row_ptr[r + 1];
					a = first_at_or_past(col, rs, re, s * slab);
					len = first_at_or_past(col, a, re, (s + 1) * slab) - a;
				}
				const bool layered = len <= LAYERS;
#pragma unroll
				for (int k = 0; k < LAYERS; k++) {
					const unsigned m = __ballot_sync(0xffffffffu, layered && len > k);
					if (pass && layered && len > k) {
						const int p = place[k] + __popc(m & below);
						ent[p] = ((unsigned)(r - r0) << COL_BITS) | (unsigned)(col[a + k] - s * slab);
						bval[p] = val[a + k];
					}
					place[k] += __popc(m);
				}
				// The long pieces, one run each: an exclusive scan of their lengths gives the places,
				// then the whole warp copies each run in turn.
				const int q = layered ? 0 : len;
				int before = q;
#pragma unroll
				for (int o = 1; o < 32; o *= 2) {
					const int t = __shfl_up_sync(0xffffffffu, before, o);
					if (lane >= o) before += t;
				}
				const int total = __shfl_sync(0xffffffffu, before, 31);
				before -= q;
				if (pass) {
					for (unsigned m = __ballot_sync(0xffffffffu, q > 0); m; m &= m - 1) {
						const int l = __ffs(m) - 1;
						const int ra = __shfl_sync(0xffffffffu, a, l), rq = __shfl_sync(0xffffffffu, q, l);
						const int rp = place[LAYERS] + __shfl_sync(0xffffffffu, before, l);
						const unsigned row_bits = (unsigned)(rr + l - r0) << COL_BITS;
						for (int i = lane; i < rq; i += 32) {
							ent[rp + i] = row_bits | (unsigned)(col[ra + i] - s * slab);
							bval[rp + i] = val[ra + i];
						}
					}
				}
				place[LAYERS] += total;
			}
			if (!pass && lane == 0)
				for (int k = 0; k <= LAYERS; k++) sizes[k] = place[k];
		}
		__syncthreads();
		if (pass == 0 && threadIdx.x == 0) {
			int sum = row_ptr[r0];
			for (int s = 0; s < ns; s++) {
				off[blockIdx.x * (ns + 1) + s] = sum;
				for (int k = 0; k <= LAYERS; k++) {
					if (k == LAYERS) runs[blockIdx.x * ns + s] = sum;
					const int n = at[s * (LAYERS + 1) + k];
					at[s * (LAYERS + 1) + k] = sum;
					sum += n;
				}
			}
			off[blockIdx.x * (ns + 1) + ns] = sum;   // the end: the long rows' nonzeros are not here
		}
		__syncthreads();
	}
	// The last block to finish marks the copy done (ell_pack's counter and flag).
	if (threadIdx.x == 0) {
		__threadfence();
		if (atomicAdd(&ready[1], 1u) == gridDim.x - 1) atomicExch(&ready[0], 1u);
	}
}

// Copy x[c0 .. c0 + slab) into xs, zeros past cols: 16-byte cp.async where four columns are whole
// (c0 and slab are multiples of 4, and cudaMalloc's pointers are aligned), the ragged end by hand.
__device__ __forceinline__ void load_slab(float *xs, const float *__restrict__ x, int c0, int slab, int cols)
{
	const int whole = max(0, min(slab, cols - c0)) / 4;
	for (int i = threadIdx.x; i < whole; i += THREADS) {
		const unsigned dst = (unsigned)__cvta_generic_to_shared(xs + 4 * i);
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(x + c0 + 4 * i) : "memory");
	}
	for (int i = 4 * whole + threadIdx.x; i < slab; i += THREADS) xs[i] = c0 + i < cols ? x[c0 + i] : 0.f;
	asm volatile("cp.async.commit_group;" ::: "memory");
}

// One step of a warp: 32 consecutive entries (the valid lanes first). Each product is added to its
// row's sum in shared memory (atomicAdd). In the layers (in_runs false) neighbouring entries are of
// different rows. In the runs after them, each run of one row's entries is added up first by a
// segmented scan of the warp, and the run's last lane adds the total: a row of thousands of nonzeros
// is not thousands of atomics on one word.
__device__ __forceinline__ void add_step(float *ys, const float *xs, bool valid, unsigned e, float v, bool in_runs)
{
	const int lane = threadIdx.x % 32;
	const unsigned row = e >> COL_BITS;
	float p = valid ? v * xs[e & ((1u << COL_BITS) - 1)] : 0.f;
	if (in_runs) {   // the same for the whole warp
		const run u = runs_of(valid, row);
#pragma unroll
		for (int o = 1; o < 32; o *= 2) {
			const float q = __shfl_up_sync(0xffffffffu, p, o);
			if (lane - o >= u.start) p += q;
		}
		if (valid && u.next == lane + 1) atomicAdd(&ys[row], p);
	} else if (valid) atomicAdd(&ys[row], p);
}

__device__ __forceinline__ void load_early(unsigned (&e)[EARLY], float (&v)[EARLY], const unsigned *__restrict__ ent,
                                           const float *__restrict__ bval, int e0, int e1)
{
#pragma unroll
	for (int k = 0; k < EARLY; k++) {
		const int j = e0 + k * THREADS + threadIdx.x;
		e[k] = j < e1 ? ent[j] : 0u;
		v[k] = j < e1 ? bval[j] : 0.f;
	}
}

extern "C" __global__ void __launch_bounds__(THREADS, 1) spmv_blocked(const unsigned *__restrict__ ent, const float *__restrict__ bval,
                                                                    const int *__restrict__ off, const int *__restrict__ runs,
                                                                    const float *__restrict__ x, float *__restrict__ y, int rows,
                                                                    int rb, int slab, int ns)
{
	extern __shared__ __align__(16) float smem[];
	float *ys = smem;   // rb row sums, then two slabs of x at smem + rb and smem + rb + slab
	const int b = blockIdx.x, r0 = b * rb, nr = min(rb, rows - r0), lane = threadIdx.x % 32;
	for (int i = threadIdx.x; i < rb; i += THREADS) ys[i] = 0.f;
	load_slab(smem + rb, x, 0, slab, rows);   // the matrix is square: x has rows columns
	// The group bounds a round needs are loaded a round ahead, so no warp waits for them.
	const int *boff = off + b * (ns + 1);
	int e0 = boff[0], e1 = boff[1], n1 = ns > 1 ? boff[2] : e1, lr = runs[b * ns];
	unsigned e[EARLY];
	float v[EARLY];
	load_early(e, v, ent, bval, e0, e1);
	for (int s = 0; s < ns; s++) {
		const float *xs = smem + rb + (s & 1) * slab;
		if (s + 1 < ns) load_slab(smem + rb + ((s + 1) & 1) * slab, x, (s + 1) * slab, slab, rows);
		else asm volatile("cp.async.commit_group;" ::: "memory");   // an empty group keeps the count
		asm volatile("cp.async.wait_group 1;" ::: "memory");       // slab s (this thread's part) is in
		__syncthreads();                                             // and everyone's, and ys is zeroed
		// The next round's first entries, loaded while this round's are added.
		const int n0 = e1, nn1 = n1, lr_here = lr;   // lr: where this group's runs begin
		n1 = s + 2 < ns ? boff[s + 3] : nn1;
		lr = s + 1 < ns ? runs[b * ns + s + 1] : 0;
		unsigned en[EARLY];
		float vn[EARLY];
		load_early(en, vn, ent, bval, n0, nn1);
#pragma unroll
		for (int k = 0; k < EARLY; k++) {
			const int base = e0 + k * THREADS + (int)(threadIdx.x - lane);   // the warp's first entry
			if (base < e1) add_step(ys, xs, base + lane < e1, e[k], v[k], base + 31 >= lr_here);
		}
		for (int base = e0 + EARLY * THREADS + (int)(threadIdx.x - lane); base < e1; base += THREADS) {
			const int j = base + lane;
			const bool valid = j < e1;
			add_step(ys, xs, valid, valid ? ent[j] : 0u, valid ? bval[j] : 0.f, base + 31 >= lr_here);
		}
		__syncthreads();   // slab s's buffer is refilled with slab s + 2 next round
#pragma unroll
		for (int k = 0; k < EARLY; k++) { e[k] = en[k]; v[k] = vn[k]; }
		e0 = n0; e1 = nn1;
	}
	for (int i = threadIdx.x; i < nr; i += THREADS) y[r0 + i] = ys[i];
}

// The long rows: block i of the grid takes chunks i, i + gridDim.x, ... of the list blocked_pack made,
// CHUNK nonzeros of one row each, gathers their x from the L2 as the balanced stage does, adds them up
// (8 a thread, then the block's warps) and adds the sum to y[row] with one atomicAdd. It runs after
// spmv_blocked, which wrote 0 for these rows.
extern "C" __global__ void __launch_bounds__(256) spmv_long(const int *__restrict__ chunk_row, const int *__restrict__ chunk_start,
                                                           const unsigned *__restrict__ ready, const int *__restrict__ row_ptr,
                                                           const int *__restrict__ col, const float *__restrict__ val,
                                                           const float *__restrict__ x, float *__restrict__ y)
{
	__shared__ float part[8];
	const int chunks = (int)ready[2];
	for (int c = blockIdx.x; c < chunks; c += gridDim.x) {
		const int r = chunk_row[c], j0 = chunk_start[c], j1 = min(j0 + CHUNK, row_ptr[r + 1]);
		float sum = 0.f;
#pragma unroll
		for (int k = 0; k < CHUNK / 256; k++) {
			const int j = j0 + k * 256 + threadIdx.x;
			if (j < j1) sum += val[j] * x[col[j]];
		}
		sum = warp_sum(sum);
		if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = sum;
		__syncthreads();
		if (threadIdx.x < 32) {
			sum = warp_sum(threadIdx.x < 8 ? part[threadIdx.x] : 0.f);
			if (threadIdx.x == 0) atomicAdd(&y[r], sum);
		}
		__syncthreads();   // part is rewritten by the next chunk
	}
}

