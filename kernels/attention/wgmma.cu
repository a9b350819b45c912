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
// Dynamic shared memory: (128 * dim + 2 * STAGES * BLOCK_N * dim) * 2 bytes + 1024 for alignment.
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
#define BLOCK_M 128                 // query rows per block: 64 per consumer warpgroup
#define NT 384                      // the producer warpgroup and two consumers
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

template <int D>
__device__ __forceinline__ void flash_body(const cc_tensormap *tmQ, const cc_tensormap *tmK, const cc_tensormap *tmV,
                                           const cc_tensormap *tmO, int seq, unsigned base, unsigned bars)
{
	constexpr unsigned Q_BYTES = BLOCK_M * D * 2, KV_BYTES = BLOCK_N * D * 2;
	const unsigned sQ = base, sK = sQ + Q_BYTES, sV = sK + STAGES * KV_BYTES;
#define QFULL (bars)
#define KFULL(s) (bars + 8 * (1 + (s)))
#define VFULL(s) (bars + 8 * (1 + STAGES + (s)))
#define KEMPTY(s) (bars + 8 * (1 + 2 * STAGES + (s)))
#define VEMPTY(s) (bars + 8 * (1 + 3 * STAGES + (s)))
	const int wg = threadIdx.x / 128, q0 = blockIdx.x * BLOCK_M, bh = blockIdx.y;
	const int nkv = (seq + BLOCK_N - 1) / BLOCK_N, last = nkv - 1, tail = seq - last * BLOCK_N;

	if (wg == 0) {   // the producer
		regs_release<24>();
		if (threadIdx.x != 0) return;
		mbar_expect_tx(QFULL, Q_BYTES);
		for (int b = 0; b < D / 64; b++) tma_load_3d(sQ + b * BLOCK_M * 128, tmQ, 64 * b, q0, bh, QFULL);
		for (int j = 0; j < nkv; j++) {
			const int s = j % STAGES;
			const unsigned ph = (j / STAGES) & 1;
			mbar_wait(KEMPTY(s), ph ^ 1);   // a fresh barrier counts as freed once
			mbar_expect_tx(KFULL(s), KV_BYTES);
			for (int b = 0; b < D / 64; b++) tma_load_3d(sK + s * KV_BYTES + b * BLOCK_N * 128, tmK, 64 * b, j * BLOCK_N, bh, KFULL(s));
			mbar_wait(VEMPTY(s), ph ^ 1);
			mbar_expect_tx(VFULL(s), KV_BYTES);
			for (int b = 0; b < D / 64; b++) tma_load_3d(sV + s * KV_BYTES + b * BLOCK_N * 128, tmV, 64 * b, j * BLOCK_N, bh, VFULL(s));
		}
		return;
	}

	regs_claim<240>();
	const int c = wg - 1, lane = threadIdx.x % 32, warp = (threadIdx.x % 128) / 32;
	const unsigned sq = sQ + c * 64 * 128;   // this consumer's 64 rows in each 64-column box of Q
	const float sl2 = 1.4426950408889634f * rsqrtf((float)D);
	float o[D / 2], s[NS], m[2] = { NEG_INF, NEG_INF }, l[2] = { 0.f, 0.f }, corr[2];
	unsigned p[NS / 2];
#pragma unroll
	for (int i = 0; i < D / 2; i++) o[i] = 0.f;

	mbar_wait(QFULL, 0);
#if OVERLAP
#if PINGPONG
	// Turns: consumer c waits at barrier 1 + c before issuing, and the other one arrives there after
	// issuing. Consumer 1 lets consumer 0 go first, and skips its last arrival so the counts match.
#define TURN_WAIT() named_sync(1 + c, 256)
#define TURN_PASS(j) do { if (c == 0 || (j) < last) named_arrive(2 - c, 256); } while (0)
	if (c == 1) named_arrive(1, 256);
#else
#define TURN_WAIT() do {} while (0)
#define TURN_PASS(j) do {} while (0)
#endif
	// Tile 0: S alone, then its softmax.
	mbar_wait(KFULL(0), 0);
	TURN_WAIT();
	fence_regs(s);
	wgmma_fence();
	issue_qk<D>(s, sq, sK);
	wgmma_commit();
	TURN_PASS(0);
	wgmma_wait<0>();
	fence_regs(s);
	if (lane == 0) mbar_arrive(KEMPTY(0));
	softmax_tile(s, m, l, corr, sl2, last == 0 ? tail : BLOCK_N);
	pack_p(s, p);
	// Tile j: S(j) and PV(j-1) issued together; the softmax of S(j) runs while PV(j-1) does.
	for (int j = 1; j < nkv; j++) {
		const int sj = j % STAGES, sp = (j - 1) % STAGES;
		mbar_wait(KFULL(sj), (j / STAGES) & 1);
		mbar_wait(VFULL(sp), ((j - 1) / STAGES) & 1);
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
		softmax_tile(s, m, l, corr, sl2, j == last ? tail : BLOCK_N);
		wgmma_wait<0>();   // PV(j-1) is done: P's registers and V's slot are free, O may be scaled
		fence_regs(o);
		fence_regs(p);
		if (lane == 0) mbar_arrive(VEMPTY(sp));
		rescale<D>(o, corr);
		pack_p(s, p);
	}
	{   // the last PV
		const int sl = last % STAGES;
		mbar_wait(VFULL(sl), (last / STAGES) & 1);
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
	for (int j = 0; j < nkv; j++) {
		const int sj = j % STAGES;
		const unsigned ph = (j / STAGES) & 1;
		mbar_wait(KFULL(sj), ph);
		fence_regs(s);
		wgmma_fence();
		issue_qk<D>(s, sq, sK + sj * KV_BYTES);
		wgmma_commit();
		wgmma_wait<0>();
		fence_regs(s);
		if (lane == 0) mbar_arrive(KEMPTY(sj));
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

	// O / l as bf16 into this consumer's rows of the Q tile, in the 128-byte swizzled layout the O
	// tensor map's store expects (16-byte chunk k of row r sits at chunk k ^ (r % 8)); then one TMA
	// store per 64-column box.
	float inv[2];
#pragma unroll
	for (int h = 0; h < 2; h++) {
		l[h] += __shfl_xor_sync(0xffffffffu, l[h], 1);
		l[h] += __shfl_xor_sync(0xffffffffu, l[h], 2);
		inv[h] = 1.f / l[h];
	}
	const int g = lane / 4;
#pragma unroll
	for (int jj = 0; jj < D / 8; jj++) {
#pragma unroll
		for (int h = 0; h < 2; h++) {
			const int r = warp * 16 + g + 8 * h;
			const unsigned addr = sq + (jj / 8) * BLOCK_M * 128 + r * 128 + (((jj % 8) ^ g) << 4) + 4 * (lane % 4);
			const unsigned v = pack_bf16(o[4 * jj + 2 * h] * inv[h], o[4 * jj + 2 * h + 1] * inv[h]);
			asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(addr), "r"(v) : "memory");
		}
	}
	fence_async_shared();
	named_sync(3 + c, 128);
	if (threadIdx.x % 128 == 0) {
		for (int b = 0; b < D / 64; b++) tma_store_3d(tmO, sq + b * BLOCK_M * 128, 64 * b, q0 + 64 * c, bh);
		tma_store_commit();
		tma_store_wait_read();
	}
#undef QFULL
#undef KFULL
#undef VFULL
#undef KEMPTY
#undef VEMPTY
}

// Grid: [ceil(seq / 128), batch * heads]; 384 threads. Q, K, V and O are seen by TMA as 3-D tensors
// [batch * heads][seq][dim] (dims innermost first: [dim, seq, batch * heads]); boxes of 64 columns:
// Q 128 rows, K and V BLOCK_N rows, O 64 rows.
extern "C" __global__ void __launch_bounds__(NT, 1)
flash_wgmma(const __grid_constant__ cc_tensormap tmQ, const __grid_constant__ cc_tensormap tmK,
            const __grid_constant__ cc_tensormap tmV, const __grid_constant__ cc_tensormap tmO, int seq, int dim)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	extern __shared__ unsigned char smem_raw[];
	__shared__ __align__(8) unsigned long long bar_mem[1 + 4 * STAGES];
	// The 128-byte swizzle repeats every 1024 bytes: each tile starts on a 1024-byte boundary.
	const unsigned base = (smem_u32(smem_raw) + 1023) & ~1023u, bars = smem_u32(bar_mem);
	if (threadIdx.x == 0) {
		mbar_init(bars, 1);   // QFULL: the producer's expect_tx, then the bytes
		for (int s = 0; s < STAGES; s++) {
			mbar_init(bars + 8 * (1 + s), 1);                 // KFULL
			mbar_init(bars + 8 * (1 + STAGES + s), 1);        // VFULL
			mbar_init(bars + 8 * (1 + 2 * STAGES + s), 8);    // KEMPTY: one arrival per consumer warp
			mbar_init(bars + 8 * (1 + 3 * STAGES + s), 8);    // VEMPTY
		}
		mbar_fence_init();
	}
	__syncthreads();
	if (dim == 128) flash_body<128>(&tmQ, &tmK, &tmV, &tmO, seq, base, bars);
	else flash_body<64>(&tmQ, &tmK, &tmV, &tmO, seq, base, bars);
#endif
}
