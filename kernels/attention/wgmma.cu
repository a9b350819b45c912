// flash_wgmma: FlashAttention on Hopper (sm_90a), the way FlashAttention-3 arranges it.
// One block computes O for 128 query rows of one (batch, head) with three warpgroups. Warpgroup 0 is
// the producer: one of its threads asks TMA for the Q tile once and then for K and V tiles of BLOCK_N
// keys, each into a ring of STAGES shared-memory slots guarded by two mbarriers per slot ("full": the
// bytes have landed; "empty": every consumer warp is done with the slot), and the rest of warpgroup 0
// gives its registers away (setmaxnreg). Warpgroups 1 and 2 are consumers, 64 query rows each. For
// each key tile a consumer issues S = Q K^T as wgmma with both operands in shared memory (128-byte
// swizzle, as TMA wrote them), runs the online softmax on S in its registers (row max, exp2 with the
// 1/sqrt(dim) scale folded into one FMA, running sum, rescale factor for O), packs P into bf16 pairs -
// the accumulator layout of S is the register layout wgmma wants for its A operand, so no data moves
// between threads - and issues O += P V with P from registers and V from shared memory (V is stored
// with dim contiguous, so it is read "N-major": nothing is transposed). With OVERLAP the loop issues
// S(j) = Q K(j)^T and O += P(j-1) V(j-1) together, waits only for S(j), and computes its softmax (the
// exp2 on the special-function units) while the tensor cores still work on PV(j-1); then it waits for
// PV(j-1), rescales O and packs P(j). (P(j) is packed only after that wait: registers an in-flight
// wgmma reads must not be written, and ptxas would otherwise serialise every wgmma.) With PINGPONG
// the two consumers take turns issuing their GEMMs (two named barriers), so one warpgroup's softmax
// runs under the other's matrix products.
// At the end each consumer divides O by the row sums, writes it as bf16 into its (now unused) part of
// the Q tile in shared memory and one TMA store copies it out; rows past seq are not written, and key
// columns past seq are masked to -inf in the last tile (TMA loaded them as zeros).
// With PERSIST the grid is one block per SM (at most), each walking the tiles blockIdx.x, blockIdx.x +
// gridDim.x, ...: the producer loads the next tile's K, Q and V while the consumers finish this one
// (the last P V, the division, the store), O is staged in a buffer of its own so that the Q slot is
// free as soon as the last S of the tile is done (a QEMPTY barrier says so), and no block start,
// barrier setup or first-load latency is paid per tile.
// Dynamic shared memory: (128 * dim * (1 + PERSIST) + 2 * STAGES * BLOCK_N * dim) * 2 bytes + 1024
// for alignment.
#include "wgmma.cuh"

#ifndef BLOCK_N
#define BLOCK_N 128
#endif
#ifndef STAGES
#define STAGES 2
#endif
#ifndef OVERLAP
#define OVERLAP 1
#endif
#ifndef PINGPONG
#define PINGPONG 1
#endif
#ifndef PERSIST
#define PERSIST 1
#endif
#ifndef SPLIT
#define SPLIT 1
#endif
#if SPLIT && !PERSIST
#error "SPLIT shares the last round out over the persistent grid: it needs PERSIST=1"
#endif
#ifndef BLOCK_M
#define BLOCK_M 128                 // query rows per block: 64 per consumer warpgroup
#endif
#define NC (BLOCK_M / 64)           // consumer warpgroups
#define NT ((NC + 1) * 128)         // the producer warpgroup and the consumers
// The consumers' registers after setmaxnreg: what the producer's 24 leave of the 64K at launch.
#define CONSUMER_REGS (NC == 2 ? 240 : 160)
#define NS (BLOCK_N / 2)            // S accumulators a consumer thread holds (64 x BLOCK_N / 128)

#if PINGPONG && !OVERLAP
#error "PINGPONG takes turns over the overlapped loop: it needs OVERLAP=1"
#endif

// Issues S = Q K^T for one key tile: D/16 wgmma of 64 x BLOCK_N x 16. Q rows and K rows are both
// "K-major" (dim contiguous) in boxes of 64 columns (128 bytes, the swizzle's width): k-step kk is
// box kk/4, 32 bytes in per step; 8-row groups lie 1024 bytes apart (the stride offset).
template <int D>
__device__ __forceinline__ void issue_qk(float (&s)[NS], unsigned sq, unsigned sk)
{
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++) {
		unsigned long long da = wgmma_desc(sq + (kk / 4) * BLOCK_M * 128 + (kk % 4) * 32, 16, 1024);
		unsigned long long db = wgmma_desc(sk + (kk / 4) * BLOCK_N * 128 + (kk % 4) * 32, 16, 1024);
		wgmma_qk<BLOCK_N>(s, da, db, kk > 0);
	}
}

// Issues O += P V for one key tile: BLOCK_N/16 wgmma of 64 x D x 16, A (P) from registers: k-step
// kk's fragment is p[4kk .. 4kk+3]. V is N-major (dim contiguous): 16 key rows are 2048 bytes, the
// two 64-column boxes (D = 128) lie BLOCK_N * 128 bytes apart (the leading offset).
template <int D>
__device__ __forceinline__ void issue_pv(float (&o)[D / 2], const unsigned (&p)[NS / 2], unsigned sv)
{
#pragma unroll
	for (int kk = 0; kk < BLOCK_N / 16; kk++) {
		const unsigned a[4] = { p[4 * kk], p[4 * kk + 1], p[4 * kk + 2], p[4 * kk + 3] };
		wgmma_pv<D>(o, a, wgmma_desc(sv + kk * 2048, BLOCK_N * 128, 1024));
	}
}

// The online softmax of one S tile over this thread's two rows (s[4t], s[4t+1]: row r; s[4t+2],
// s[4t+3]: row r + 8; a row is spread over 4 lanes). Columns from `valid` on are masked. Updates the
// running max m (in raw score units) and this thread's partial row sum l, returns in corr the factor
// the previous O must be multiplied by, and leaves exp2((s - m) * scale * log2 e) in s.
__device__ __forceinline__ void softmax_tile(float (&s)[NS], float (&m)[2], float (&l)[2], float (&corr)[2], float sl2, int valid)
{
	const int c0 = 2 * (threadIdx.x % 4);
	if (valid < BLOCK_N) {
#pragma unroll
		for (int i = 0; i < NS; i++)
			if (8 * (i / 4) + c0 + (i & 1) >= valid) s[i] = NEG_INF;
	}
	float mx[2] = { m[0], m[1] };
#pragma unroll
	for (int t = 0; t < NS / 4; t++) {
		mx[0] = fmaxf(mx[0], fmaxf(s[4 * t], s[4 * t + 1]));
		mx[1] = fmaxf(mx[1], fmaxf(s[4 * t + 2], s[4 * t + 3]));
	}
	float ms[2], sum[2] = { 0.f, 0.f };
#pragma unroll
	for (int h = 0; h < 2; h++) {
		mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 1));
		mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 2));
		corr[h] = fast_exp2((m[h] - mx[h]) * sl2);   // 0 on the first tile (m = -inf)
		m[h] = mx[h];
		ms[h] = mx[h] * sl2;
	}
#pragma unroll
	for (int i = 0; i < NS; i++) {
		s[i] = fast_exp2(fmaf(s[i], sl2, -ms[(i >> 1) & 1]));
		sum[(i >> 1) & 1] += s[i];
	}
#pragma unroll
	for (int h = 0; h < 2; h++) l[h] = l[h] * corr[h] + sum[h];
}

// P as bf16 pairs: the accumulator layout of S is the A-fragment layout of the PV wgmma.
__device__ __forceinline__ void pack_p(const float (&s)[NS], unsigned (&p)[NS / 2])
{
#pragma unroll
	for (int i = 0; i < NS / 2; i++) p[i] = pack_bf16(s[2 * i], s[2 * i + 1]);
}

template <int D>
__device__ __forceinline__ void rescale(float (&o)[D / 2], const float (&corr)[2])
{
#pragma unroll
	for (int i = 0; i < D / 2; i++) o[i] *= corr[(i >> 1) & 1];
}

// A block's work, as pieces (tile, key tiles j0 .. j1-1). First whole tiles, blockIdx.x, blockIdx.x +
// gridDim.x, ... below `full`; with SPLIT, `full` is the last whole round and the key tiles of the
// tiles after it (R tiles, R * nkv key tiles) are cut into gridDim.x even ranges, one a block, walked
// in order: a range is the end of one tile and the start of the next at most (it is shorter than
// nkv), so a block has at most one piece that starts mid-tile.
// Only the position is kept (the rest is recomputed from the kernel's parameters: the producer thread
// has 24 registers).
struct pieces {
	int ntiles, nkv, tile, pos;   // pos < gridDim.x * nkv: small
	__device__ pieces(int ntiles_, int nkv_) : ntiles(ntiles_), nkv(nkv_), tile((int)blockIdx.x), pos(start(blockIdx.x)) {}
	__device__ int full() const { return SPLIT ? ntiles - ntiles % (int)gridDim.x : ntiles; }
	// Where block b's range of split key tiles begins (counted from the first split tile's first).
	__device__ int start(int b) const { return (ntiles - full()) * nkv * b / (int)gridDim.x; }
	__device__ bool next(int &t, int &j0, int &j1)
	{
		if (tile < full()) { t = tile; j0 = 0; j1 = nkv; tile += (int)gridDim.x; return true; }
		const int end = start(blockIdx.x + 1);
		if (pos >= end) return false;
		t = full() + pos / nkv;
		j0 = pos % nkv;
		j1 = min(nkv, j0 + (end - pos));
		pos += j1 - j0;
		return true;
	}
	__device__ bool more() const { return tile < full() || pos < start(blockIdx.x + 1); }
};

template <int D>
__device__ __forceinline__ void flash_body(const cc_tensormap *tmQ, const cc_tensormap *tmK, const cc_tensormap *tmV,
                                           const cc_tensormap *tmO, int seq, int nbh, float *work, unsigned *flags, unsigned base, unsigned bars)
{
	constexpr unsigned Q_BYTES = BLOCK_M * D * 2, KV_BYTES = BLOCK_N * D * 2;
	const unsigned sQ = base, sK = sQ + Q_BYTES, sV = sK + STAGES * KV_BYTES;
#define QFULL (bars)
#define QEMPTY (bars + 8 * (1 + 4 * STAGES))
#define KFULL(s) (bars + 8 * (1 + (s)))
#define VFULL(s) (bars + 8 * (1 + STAGES + (s)))
#define KEMPTY(s) (bars + 8 * (1 + 2 * STAGES + (s)))
#define VEMPTY(s) (bars + 8 * (1 + 3 * STAGES + (s)))
	const int wg = threadIdx.x / 128, nqb = (seq + BLOCK_M - 1) / BLOCK_M, ntiles = nqb * nbh;
	const int nkv = (seq + BLOCK_N - 1) / BLOCK_N, last = nkv - 1, tail = seq - last * BLOCK_N;

	if (wg == 0) {   // the producer
		regs_release<24>();
		if (threadIdx.x != 0) return;
		// KV tiles are counted over the whole walk (it): slot it % STAGES, phase (it / STAGES) & 1.
		// Tile t's Q goes in after its first K, once both consumers are done with tile t-1's Q.
		pieces walk(ntiles, nkv);
		for (int tile, j0, j1, it = 0, tn = 0; walk.next(tile, j0, j1); tn++) {
			const int q0 = (tile % nqb) * BLOCK_M, bh = tile / nqb;
			for (int j = j0; j < j1; j++, it++) {
				const int s = it % STAGES;
				const unsigned ph = (it / STAGES) & 1;
				mbar_wait(KEMPTY(s), ph ^ 1);   // a fresh barrier counts as freed once
				mbar_expect_tx(KFULL(s), KV_BYTES);
				for (int b = 0; b < D / 64; b++) tma_load_3d(sK + s * KV_BYTES + b * BLOCK_N * 128, tmK, 64 * b, j * BLOCK_N, bh, KFULL(s));
				if (j == j0) {
					mbar_wait(QEMPTY, (tn & 1) ^ 1);
					mbar_expect_tx(QFULL, Q_BYTES);
					for (int b = 0; b < D / 64; b++) tma_load_3d(sQ + b * BLOCK_M * 128, tmQ, 64 * b, q0, bh, QFULL);
				}
				mbar_wait(VEMPTY(s), ph ^ 1);
				mbar_expect_tx(VFULL(s), KV_BYTES);
				for (int b = 0; b < D / 64; b++) tma_load_3d(sV + s * KV_BYTES + b * BLOCK_N * 128, tmV, 64 * b, j * BLOCK_N, bh, VFULL(s));
			}
		}
		return;
	}

	regs_claim<CONSUMER_REGS>();
	const int c = wg - 1, lane = threadIdx.x % 32, warp = (threadIdx.x % 128) / 32;
	const unsigned sq = sQ + c * 64 * 128;   // this consumer's 64 rows in each 64-column box of Q
	// O is staged in this consumer's rows of a buffer of its own (PERSIST) or of the Q tile.
	const unsigned so = (PERSIST ? sV + STAGES * KV_BYTES : sQ) + c * 64 * 128;
	const float sl2 = 1.4426950408889634f * rsqrtf((float)D);
	float o[D / 2], s[NS], m[2], l[2], corr[2];
	unsigned p[NS / 2];
#if OVERLAP && PINGPONG
	// Turns, round the consumers in order: consumer c waits at barrier 1 + c before issuing, and the
	// one before it arrives there after issuing. The last consumer lets consumer 0 go first, and skips
	// its very last arrival so the counts match.
#define TURN_WAIT() named_sync(1 + c, 256)
#define TURN_PASS(j) do { if (c != NC - 1 || !final || (j) < j1 - 1) named_arrive(1 + (c + 1) % NC, 256); } while (0)
	if (c == NC - 1) named_arrive(1, 256);
#else
#define TURN_WAIT() do {} while (0)
#define TURN_PASS(j) do {} while (0)
#endif
#define Q_DONE() do { if (lane == 0) mbar_arrive(QEMPTY); } while (0)   // this warp's last read of Q

	pieces walk(ntiles, nkv);
	for (int tile, j0, j1, it = 0, tn = 0; walk.next(tile, j0, j1); it += j1 - j0, tn++) {
	const int q0 = (tile % nqb) * BLOCK_M, bh = tile / nqb;
	const bool final = !walk.more();   // this block's last piece: consumer 1 skips its last turn pass
	(void)final;
	m[0] = m[1] = NEG_INF;
	l[0] = l[1] = 0.f;
#pragma unroll
	for (int i = 0; i < D / 2; i++) o[i] = 0.f;
#define SLOT(j) ((it + (j) - j0) % STAGES)
#define PHASE(j) (((it + (j) - j0) / STAGES) & 1)

	mbar_wait(QFULL, tn & 1);
#if OVERLAP
	// The piece's first key tile: S alone, then its softmax.
	mbar_wait(KFULL(SLOT(j0)), PHASE(j0));
	TURN_WAIT();
	fence_regs(s);
	wgmma_fence();
	issue_qk<D>(s, sq, sK + SLOT(j0) * KV_BYTES);
	wgmma_commit();
	TURN_PASS(j0);
	wgmma_wait<0>();
	fence_regs(s);
	if (lane == 0) mbar_arrive(KEMPTY(SLOT(j0)));
	if (j1 == j0 + 1) Q_DONE();
	softmax_tile(s, m, l, corr, sl2, j0 == last ? tail : BLOCK_N);
	pack_p(s, p);
	// Tile j: S(j) and PV(j-1) issued together; the softmax of S(j) runs while PV(j-1) does.
	for (int j = j0 + 1; j < j1; j++) {
		const int sj = SLOT(j), sp = SLOT(j - 1);
		mbar_wait(KFULL(sj), PHASE(j));
		mbar_wait(VFULL(sp), PHASE(j - 1));
		TURN_WAIT();
		fence_regs(s);
		fence_regs(o);
		wgmma_fence();
		issue_qk<D>(s, sq, sK + sj * KV_BYTES);
		wgmma_commit();
		issue_pv<D>(o, p, sV + sp * KV_BYTES);
		wgmma_commit();
		TURN_PASS(j);
		wgmma_wait<1>();   // S(j) is done; PV(j-1) may still run
		fence_regs(s);
		if (lane == 0) mbar_arrive(KEMPTY(sj));
		if (j == j1 - 1) Q_DONE();
		softmax_tile(s, m, l, corr, sl2, j == last ? tail : BLOCK_N);
		wgmma_wait<0>();   // PV(j-1) is done: P's registers and V's slot are free, O may be scaled
		fence_regs(o);
		fence_regs(p);
		if (lane == 0) mbar_arrive(VEMPTY(sp));
		rescale<D>(o, corr);
		pack_p(s, p);
	}
	{   // the last PV
		const int sl = SLOT(j1 - 1);
		mbar_wait(VFULL(sl), PHASE(j1 - 1));
		fence_regs(o);
		wgmma_fence();
		issue_pv<D>(o, p, sV + sl * KV_BYTES);
		wgmma_commit();
		wgmma_wait<0>();
		fence_regs(o);
		fence_regs(p);
		if (lane == 0) mbar_arrive(VEMPTY(sl));
	}
#else
	// One tile at a time: S, its softmax, rescale O, then PV; the tensor cores wait during the softmax
	// unless the other consumer has work for them.
	for (int j = j0; j < j1; j++) {
		const int sj = SLOT(j);
		const unsigned ph = PHASE(j);
		mbar_wait(KFULL(sj), ph);
		fence_regs(s);
		wgmma_fence();
		issue_qk<D>(s, sq, sK + sj * KV_BYTES);
		wgmma_commit();
		wgmma_wait<0>();
		fence_regs(s);
		if (lane == 0) mbar_arrive(KEMPTY(sj));
		if (j == j1 - 1) Q_DONE();
		softmax_tile(s, m, l, corr, sl2, j == last ? tail : BLOCK_N);
		pack_p(s, p);
		rescale<D>(o, corr);
		mbar_wait(VFULL(sj), ph);
		fence_regs(o);
		wgmma_fence();
		issue_pv<D>(o, p, sV + sj * KV_BYTES);
		wgmma_commit();
		wgmma_wait<0>();
		fence_regs(o);
		fence_regs(p);
		if (lane == 0) mbar_arrive(VEMPTY(sj));
	}
#endif

#if SPLIT
	if (j0 > 0 || j1 < nkv) {
		// A piece of a split tile. One that starts mid-tile leaves its O (not yet divided), its row
		// maxima and its partial row sums in the block's slot of `work` and counts itself in the
		// tile's flag; the piece from key tile 0 (a range's last piece, so it never waits while
		// others wait for it) waits for the others, which belong to the blocks after this one, merges
		// them as the online softmax merges two key tiles, and stores O.
		const int t = threadIdx.x % 128;
		unsigned *flag = flags + (size_t)(tile - walk.full()) * NC + c;
		if (j0 > 0) {
			float *w = work + ((size_t)blockIdx.x * NC + c) * (D / 2 + 4) * 128 + t;
#pragma unroll
			for (int i = 0; i < D / 2; i++) __stcg(w + i * 128, o[i]);
#pragma unroll
			for (int h = 0; h < 2; h++) {
				__stcg(w + (D / 2 + h) * 128, m[h]);
				__stcg(w + (D / 2 + 2 + h) * 128, l[h]);
			}
			named_sync(1 + NC + c, 128);   // every thread's part is written before the count says so
			if (t == 0) asm volatile("red.release.gpu.global.add.u32 [%0], 1;\n" ::"l"(flag) : "memory");
			continue;
		}
		const int tile_end = (tile - walk.full() + 1) * nkv;
		int others = 0;
		for (int b = blockIdx.x + 1; walk.start(b) < tile_end; b++) others++;
		if (t == 0) {
			unsigned seen;
			do asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(seen) : "l"(flag) : "memory");
			while (seen < (unsigned)others);
			*flag = 0;   // read only here: ready for the next launch
		}
		named_sync(1 + NC + c, 128);
		for (int b = blockIdx.x + 1; b <= (int)blockIdx.x + others; b++) {
			const float *w = work + ((size_t)b * NC + c) * (D / 2 + 4) * 128 + t;
			float ca[2], cb[2];
#pragma unroll
			for (int h = 0; h < 2; h++) {
				const float mb = __ldcg(w + (D / 2 + h) * 128), lb = __ldcg(w + (D / 2 + 2 + h) * 128);
				const float mx = fmaxf(m[h], mb);
				ca[h] = fast_exp2((m[h] - mx) * sl2);
				cb[h] = fast_exp2((mb - mx) * sl2);
				m[h] = mx;
				l[h] = l[h] * ca[h] + lb * cb[h];
			}
#pragma unroll
			for (int i = 0; i < D / 2; i++) o[i] = o[i] * ca[(i >> 1) & 1] + __ldcg(w + i * 128) * cb[(i >> 1) & 1];
		}
	}
#else
	(void)work;
	(void)flags;
#endif

	// O / l as bf16 into this consumer's rows of the staging buffer, in the 128-byte swizzled layout
	// the O tensor map's store expects (16-byte chunk k of row r sits at chunk k ^ (r % 8)); then one
	// TMA store per 64-column box. The buffer is written only once the previous tile's store has read
	// it (PERSIST; without it the buffer is the Q tile, which no one reads any more).
	float inv[2];
#pragma unroll
	for (int h = 0; h < 2; h++) {
		l[h] += __shfl_xor_sync(0xffffffffu, l[h], 1);
		l[h] += __shfl_xor_sync(0xffffffffu, l[h], 2);
		inv[h] = 1.f / l[h];
	}
#if PERSIST
	if (threadIdx.x % 128 == 0) tma_store_wait_read();
	named_sync(1 + NC + c, 128);
#endif
	const int g = lane / 4;
#pragma unroll
	for (int jj = 0; jj < D / 8; jj++) {
#pragma unroll
		for (int h = 0; h < 2; h++) {
			const int r = warp * 16 + g + 8 * h;
			const unsigned addr = so + (jj / 8) * BLOCK_M * 128 + r * 128 + (((jj % 8) ^ g) << 4) + 4 * (lane % 4);
			const unsigned v = pack_bf16(o[4 * jj + 2 * h] * inv[h], o[4 * jj + 2 * h + 1] * inv[h]);
			asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(addr), "r"(v) : "memory");
		}
	}
	fence_async_shared();
	named_sync(1 + NC + c, 128);
	if (threadIdx.x % 128 == 0) {
		for (int b = 0; b < D / 64; b++) tma_store_3d(tmO, so + b * BLOCK_M * 128, 64 * b, q0 + 64 * c, bh);
		tma_store_commit();
	}
#undef SLOT
#undef PHASE
	}
	if (threadIdx.x % 128 == 0) tma_store_wait_read();   // shared memory must outlive the reads
#undef Q_DONE
#undef QFULL
#undef KFULL
#undef VFULL
#undef KEMPTY
#undef VEMPTY
#undef QEMPTY
}

// Grid: ceil(seq / 128) * batch * heads blocks (tile t: query rows 128 (t % ceil(seq / 128)) on, head
// t / ceil(seq / 128)), or with PERSIST at most one block per SM; 384 threads. Q, K, V and O are seen by TMA as 3-D tensors
// [batch * heads][seq][dim] (dims innermost first: [dim, seq, batch * heads]); boxes of 64 columns:
// Q 128 rows, K and V BLOCK_N rows, O 64 rows.
extern "C" __global__ void __launch_bounds__(NT, 1)
flash_wgmma(const __grid_constant__ cc_tensormap tmQ, const __grid_constant__ cc_tensormap tmK,
            const __grid_constant__ cc_tensormap tmV, const __grid_constant__ cc_tensormap tmO, int seq, int dim, int nbh, float *work, unsigned *flags)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	extern __shared__ unsigned char smem_raw[];
	__shared__ __align__(8) unsigned long long bar_mem[2 + 4 * STAGES];
	// The 128-byte swizzle repeats every 1024 bytes: each tile starts on a 1024-byte boundary.
	const unsigned base = (smem_u32(smem_raw) + 1023) & ~1023u, bars = smem_u32(bar_mem);
	if (threadIdx.x == 0) {
		mbar_init(bars, 1);   // QFULL: the producer's expect_tx, then the bytes
		for (int s = 0; s < STAGES; s++) {
			mbar_init(bars + 8 * (1 + s), 1);                 // KFULL
			mbar_init(bars + 8 * (1 + STAGES + s), 1);        // VFULL
			mbar_init(bars + 8 * (1 + 2 * STAGES + s), NC * 4);   // KEMPTY: one arrival per consumer warp
			mbar_init(bars + 8 * (1 + 3 * STAGES + s), NC * 4);   // VEMPTY
		}
		mbar_init(bars + 8 * (1 + 4 * STAGES), NC * 4);   // QEMPTY: one arrival per consumer warp
		mbar_fence_init();
	}
	__syncthreads();
#if NC == 2
	if (dim == 128) flash_body<128>(&tmQ, &tmK, &tmV, &tmO, seq, nbh, work, flags, base, bars);
	else
#endif
		flash_body<64>(&tmQ, &tmK, &tmV, &tmO, seq, nbh, work, flags, base, bars);   // three consumers: dim 64 only
#endif
}
