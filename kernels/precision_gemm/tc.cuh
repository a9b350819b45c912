// The tensor-core GEMM of the tf32, bf16, fp16, fp8 and int8_wgmma stages: one kernel, the number format
// chosen by the stage file (FMT_*), everything else the same, so that the stages differ only in what
// they store. The sums are FP32 for the float formats and exact int32 for INT8 (acc_t, wgmma_fmt.cuh).
// It is the warp-specialised, persistent design of tensorcore/wgmma_ws with both operands k-major
// (a k-major operand's descriptor: 8-row groups of 128-byte rows, 1024 bytes apart):
//  - warpgroup 0 (one thread) loads, for each 128-byte slice of k, a BM x 128-byte box of A and a
//    BN x 128-byte box of the transposed B copy with TMA into a ring of STAGES slots, 128-byte
//    swizzled, counting the bytes on the slot's "full" mbarrier;
//  - with PINGPONG 0, warpgroups 1..BM/64 each multiply 64 rows of the tile by the BN columns: four
//    wgmma per slot (32 bytes of k each), one group kept in flight, the slot freed ("empty") when its
//    group is done; with PINGPONG 1 (below) warpgroups 1 and 2 each take a whole tile, BM/64 wgmma
//    per 32 bytes of k;
//  - setmaxnreg moves registers from the loader to the consumers' accumulators (BN/2 a thread, or
//    BM*BN/128 with PINGPONG 1): 240 a consumer thread, the loader's PRODUCER_REGS (24 beside two
//    consumer warpgroups: 2 * 128 * 240 + 128 * 24 <= 64K). BN is 128, 160, 176, 192 or 256 (the
//    wgmma of wgmma_fmt.cuh); where it is not a multiple of 32 (176) the TMA epilogue stores the last
//    16 columns of each row directly (store_tile), as a box of 32 would reach into the next tile.
// TMA reads zeros outside the matrices, and C is written with bounds checks, so m and n may be
// anything; k's rows must be a multiple of 16 bytes (TMA). The FP8 and INT8 stages pass sa and sb, the
// scales of A's rows and B's columns, and C[i][j] = sa[i] * sb[j] * (A8 . B8)[i][j] (INT8: the int32
// sum converted to FP32 and multiplied by the product sa[i] * sb[j], as the dp4a and mma stages do, so
// all three give the same bits); the others pass NULL.
//
// The machinery of tensorcore/wgmma_cluster.cu, as tunables (each 0 or 1 leaves today's kernel):
//  - CM 2: clusters of 2 CTAs (__cluster_dims__, TC_CLUSTER below) compute the tiles above each other
//    (tile rows CM*i + rank, the same columns tn), so both need the same BN x 128-byte box of B at
//    every k-step. B is k-major here (n rows of k), so the box splits along n: CTA r loads rows
//    [r*BN/CM, (r+1)*BN/CM) of it (the tensor map's box is BN/CM rows) and TMA multicast writes them
//    into every CTA of the cluster at the same offset, counting the bytes on the same slot's "full"
//    barrier in each. Each CTA still loads its own A. A slot is refilled only when the consumers of
//    the whole cluster are done with it: "empty" counts CM * 4 arrivals per reading warpgroup, each consumer
//    warp arriving on the barrier of every CTA (mapa), released at CTA scope.
//  - ORDER: the CTAs walk super-tiles of CM*BM x BN, cluster c taking c, c + clusters, ..., in grouped
//    order (ORDER 0: GROUP_M super-rows at a time) or along a Hilbert curve (ORDER 1); CLUSTERS (the
//    launch's cap) sets how many clusters walk it.
//  - EPILOGUE 1: each consumer writes its results, 64 x BN at a time (scaled first, for FP8), into EPI_BOXES boxes
//    of 64 rows x 32 floats in shared memory (128-byte swizzle; with BN 176 the last 16 columns are
//    stored directly, as a box would reach into the next tile) and one thread hands each box to a
//    TMA store (the tmC tensor map), which writes it to C while the warpgroup goes on to the next
//    tile; TMA clips what lies outside C. A box is reused once its last store has read it. TMA needs
//    C's rows to be a multiple of 16 bytes: where n % 4 != 0 the direct stores are used instead.
//  - STREAMK 1: the super-tiles that do not fill a whole round are cut into k-steps shared out evenly
//    over all clusters (stream-K), each run taking its later super-tile's part first (seg_walk.cuh); a
//    part that does not reach the last k-step goes to the cluster's slot of `work` and is counted in
//    `flags`, and the cluster with the part that does adds them (see below).
//    INT8's int32 parts travel through the FP32 workspace as bits and are added as integers (exact).
//    With PINGPONG 1 a part is taken by whichever warpgroup's turn it is, and its slot is the CTA's.
//  - PINGPONG 1: the two consumer warpgroups take the walk's tiles in turn, each computing a whole
//    BM x BN tile (BM/64 halves of 64 rows, BM*BN/128 sums a thread, so BN 128, 160 or 176 with BM
//    128; at 192 ptxas spills). One
//    warpgroup's epilogue then runs while the other's wgmma keep the tensor cores busy; with both on
//    one tile (0, "cooperative") the tensor cores wait while both store. The ring is the same: the
//    slots come in the walk's order and each is read by one warpgroup, which steps over the slots of
//    the tiles that are not its own. cuBLASLt's fastest FP8 kernel on the H200 is of this kind.
#include "sm90.cuh"
#include "wgmma_fmt.cuh"

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 256
#endif
#ifndef STAGES
#define STAGES 4
#endif
#ifndef GROUP_M
#define GROUP_M 16
#endif
#ifndef CM
#define CM 1
#endif
#ifndef ORDER
#define ORDER 0
#endif
#ifndef EPILOGUE
#define EPILOGUE 0
#endif
#ifndef EPI_BOXES
#define EPI_BOXES 2
#endif
#ifndef STREAMK
#define STREAMK 0
#endif
#ifndef EPI_SWZ
#define EPI_SWZ 0
#endif
#ifndef PINGPONG
#define PINGPONG 0
#endif
#define KB 128                          // bytes of k per slot: one swizzle row
#if PINGPONG
#define CONSUMERS 2                     // each a whole tile, in turn
#define TILE_WGS 1                      // consumer warpgroups on one tile
#define HALVES (BM / 64)                // m64 wgmma per k-step and warpgroup
#define SLOT_READERS 1                  // consumer warpgroups that read one slot
// 176 sums fit the consumers' 240 registers beside the rest (ptxas for sm_90a: no spills); 192 spill.
#if BM * BN / 128 > 176
#error "PINGPONG 1 holds a whole BM x BN tile in one warpgroup, BM*BN/128 sums a thread: at most 176 (BM 128 with BN 128, 160 or 176; or BM 64)"
#endif
#else
#define CONSUMERS (BM / 64)
#define TILE_WGS CONSUMERS
#define HALVES 1
#define SLOT_READERS CONSUMERS
#endif
#define NT ((CONSUMERS + 1) * 128)
#define A_BYTES (BM * KB)
#define B_BYTES (BN * KB)
#define B_SHARE (BN / CM)               // rows of the B box that one CTA of a cluster loads
#if B_SHARE % 8 != 0
#error "each CTA's share of B's box, BN/CM rows, must be whole 8-row groups (1024 bytes, the swizzle's period)"
#endif
#define BOX_BYTES (64 * 32 * 4)         // one staging box of C: 64 rows x 32 floats
#define ACC (BN / 2)
#define SB_PAIRS ((BN + 63) / 64)       // sb's coalesced pairs a lane loads (tile_scales)
// The loader's registers a thread after setmaxnreg: what the consumers' 240 leave of the 64K, at most 40.
#define PRODUCER_REGS (CONSUMERS == 1 ? 40 : 24)
#if CM > 1
#define TC_CLUSTER __cluster_dims__(CM, 1, 1)
#else
#define TC_CLUSTER
#endif

// The work of one cluster, in order: kernels/common/seg_walk.cuh (the tensorcore lesson's too).
#include "seg_walk.cuh"

// The scales of one consumer's tile (FP8, INT8; without scales a0 = a1 = 1 and b unused), loaded into
// registers where the tile's k loop starts, so that the loads' latency hides behind the loop instead
// of stalling the store (on the H200 the epilogue's scale loads were 28% of gemm_fp8's warp samples,
// three quarters of them waiting on those loads). a0, a1: sa of the thread's rows r and r + 8; lane L
// holds sb of columns col0 + 64h + 2L + e in b[2h + e] (coalesced float pairs), and scale_b hands a
// lane the sb of its own columns by a shuffle.
struct tile_scales {
	float a0, a1;
	float b[2 * SB_PAIRS];
};

__device__ __forceinline__ void scales_load(tile_scales &sc, const float *sa, const float *sb, int m, int n, int row0, int col0)
{
	const int lane = threadIdx.x % 32, r = (threadIdx.x % 128) / 32 * 16 + lane / 4;
	sc.a0 = sa && row0 + r < m ? sa[row0 + r] : 1.f;
	sc.a1 = sa && row0 + r + 8 < m ? sa[row0 + r + 8] : 1.f;
#pragma unroll
	for (int h = 0; h < SB_PAIRS; h++)
#pragma unroll
		for (int e = 0; e < 2; e++) {   // where BN % 64 != 0 the last h reaches past the tile: not loaded
			const int at = 64 * h + 2 * lane + e, col = col0 + at;
			sc.b[2 * h + e] = sb && col < n && (BN % 64 == 0 || at < BN) ? sb[col] : 0.f;
		}
}

// sb of column col0 + 64h + 8i + 2(lane % 4) + e (0 past n; i < 8), from the lane that loaded it
// (lane 4i + lane % 4, its b[2h + e]); every lane of the warp must call it (a shuffle). h must be known
// at compile time (registers cannot be indexed at run time); i may differ from lane to lane.
__device__ __forceinline__ float scale_b_at(const tile_scales &sc, int h, int i, int e)
{
	return __shfl_sync(0xffffffffu, sc.b[2 * h + e], 4 * i + threadIdx.x % 4);
}

// sb of column col0 + 8j + 2(lane % 4) + e, for j known at compile time.
__device__ __forceinline__ float scale_b(const tile_scales &sc, int j, int e) { return scale_b_at(sc, j / 8, j % 8, e); }

// Warp w of a consumer warpgroup holds rows 16w + l/4 and 16w + l/4 + 8 of its 64, columns
// 8j + 2(l%4) and the next, for j < N/8 (the m64nNk* accumulator layout). With scales: (sa * sb) * sum,
// an INT8 sum converted to FP32 for the last multiply. The column groups J0 <= j < BN/8 (all, or the
// last 16 columns that the TMA epilogue leaves where BN % 32 != 0).
template <int J0 = 0>
__device__ __forceinline__ void store_tile(const acc_t (&d)[ACC], float *C, const tile_scales &sc, bool scaled,
                                           int m, int n, int row0, int col0)
{
	const int lane = threadIdx.x % 32, warp = (threadIdx.x % 128) / 32;
#pragma unroll
	for (int j = J0; j < BN / 8; j++) {
		float bj[2] = {1.f, 1.f};
		if (scaled) { bj[0] = scale_b(sc, j, 0); bj[1] = scale_b(sc, j, 1); }
#pragma unroll
		for (int h = 0; h < 2; h++) {
			const int row = row0 + warp * 16 + lane / 4 + 8 * h;
			const float s = h ? sc.a1 : sc.a0;
			if (row >= m) continue;
#pragma unroll
			for (int e = 0; e < 2; e++) {
				const int col = col0 + 8 * j + 2 * (lane % 4) + e;
				if (col < n) C[(size_t)row * n + col] = scaled ? s * bj[e] * d[4 * j + 2 * h + e] : (float)d[4 * j + 2 * h + e];
			}
		}
	}
}

#if EPILOGUE
// The TMA-store epilogue: box b holds columns 32b .. 32b+31 of this warpgroup's 64 rows (row0, col0
// in C); the thread's d[4j .. 4j+3] are columns 8j + 2(lane%4) + {0, 1} of rows r and r + 8. FP8's
// and INT8's scales are applied on the way into the box (sum * (sa * sb): store_tile's bits, INT8's
// sum converted to FP32 first). `mine` is this warpgroup's EPI_BOXES boxes. BN/32 boxes: where BN is not
// a multiple of 32 (176) the caller stores the columns past the last box directly (store_tile<J0>).
// Bank conflicts: a half-warp's 8-byte stores cover rows r .. r+3 (lane / 4), each row's four lanes 32
// bytes of one column group e; under the swizzle rows 2i and 2i+1 put group e on the same 32 bytes of
// banks, so each store takes two wavefronts where one would do. EPI_SWZ 1: the lanes of odd rows
// (r % 8 odd) take the groups in the order e ^ 3, which puts the four rows on four different 32-byte
// groups of banks (scripts/tc-epilogue-banks.py models these addresses for every lane, group and box:
// each element lands once, where the box has it, one wavefront per half-warp). The lane's values are
// picked with selects, as registers cannot be indexed by a lane's own number.
// `used` counts the boxes this warpgroup has handed to TMA so far (kept across tiles): the boxes are
// taken in turn, so the one about to be written is the one of EPI_BOXES stores ago, whatever BN is.
__device__ __forceinline__ void store_tile_tma(const acc_t (&d)[ACC], const cc_tensormap &tmC, const tile_scales &sc, bool scaled,
                                               unsigned mine, unsigned &used, int row0, int col0)
{
	const int t = threadIdx.x % 128, lane = t % 32, wgid = threadIdx.x / 128;
	const bool leader = t == 0;
	const int r = t / 32 * 16 + lane / 4;
	const float s0 = sc.a0, s1 = sc.a1;
#pragma unroll
	for (int b = 0; b < BN / 32; b++) {
		const unsigned box = mine + (used++ % EPI_BOXES) * BOX_BYTES;
		if (leader) tma_store_wait_read_n<EPI_BOXES - 1>();   // this box's last store has read it
		named_sync(wgid, 128);
#pragma unroll
		for (int e = 0; e < 4; e++) {
#if EPI_SWZ
			const bool odd = (lane >> 2) & 1;                  // r % 8 is odd
			const int ja = 4 * b + e, jb = 4 * b + (e ^ 3), eo = odd ? e ^ 3 : e;
			const int chunk = 2 * eo + (lane % 4) / 2, within = 8 * (lane % 2);
			float v0 = (float)(odd ? d[4 * jb] : d[4 * ja]), v1 = (float)(odd ? d[4 * jb + 1] : d[4 * ja + 1]),
			      v2 = (float)(odd ? d[4 * jb + 2] : d[4 * ja + 2]), v3 = (float)(odd ? d[4 * jb + 3] : d[4 * ja + 3]);
			if (scaled) {   // j = 4b + eo: j / 8 is b / 2 for every eo < 4 (known at compile time), j % 8 is 4(b % 2) + eo
				const float b0 = scale_b_at(sc, b / 2, 4 * (b % 2) + eo, 0), b1 = scale_b_at(sc, b / 2, 4 * (b % 2) + eo, 1);
				v0 *= s0 * b0; v1 *= s0 * b1; v2 *= s1 * b0; v3 *= s1 * b1;
			}
#else
			const int j = 4 * b + e, chunk = 2 * e + (lane % 4) / 2, within = 8 * (lane % 2);
			float v0 = (float)d[4 * j], v1 = (float)d[4 * j + 1], v2 = (float)d[4 * j + 2], v3 = (float)d[4 * j + 3];
			if (scaled) {
				const float b0 = scale_b(sc, j, 0), b1 = scale_b(sc, j, 1);
				v0 *= s0 * b0; v1 *= s0 * b1; v2 *= s1 * b0; v3 *= s1 * b1;
			}
#endif
			// 128-byte swizzle: the 16-byte chunk index is XORed with the row's index mod 8.
			const unsigned at = box + r * 128 + ((chunk ^ (r % 8)) << 4) + within;
			asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(at), "f"(v0), "f"(v1) : "memory");
			asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(at + 8 * 128), "f"(v2), "f"(v3) : "memory");
		}
		fence_async_shared();   // the writes above are seen by the TMA unit
		named_sync(wgid, 128);
		if (leader) {
			tma_store_2d(&tmC, box, col0 + 32 * b, row0);
			tma_store_commit();
		}
	}
}
#endif

__device__ __forceinline__ void tc_gemm(const cc_tensormap &tmA, const cc_tensormap &tmB, const cc_tensormap &tmC, float *C,
                                        const float *sa, const float *sb, float *work, unsigned *flags, int m, int n, int k)
{
	extern __shared__ unsigned char smem_raw[];
	// The swizzle repeats every 1024 bytes; the offsets are the same in every CTA of a cluster, which
	// multicast relies on.
	const unsigned base = (smem_u32(smem_raw) + 1023) & ~1023u;
	const unsigned sA = base, sB = base + STAGES * A_BYTES, sC = sB + STAGES * B_BYTES;
	const unsigned bars = sC + EPILOGUE * CONSUMERS * EPI_BOXES * BOX_BYTES;
#define FULL(s) (bars + 8 * (s))
#define EMPTY(s) (bars + 8 * (STAGES + (s)))
	const int wg = threadIdx.x / 128;
#if CM > 1
	const unsigned rank = cluster_rank();
#else
	const unsigned rank = 0;
#endif
	const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
	const int tiles_m2 = (tiles_m + CM - 1) / CM;
	const int ksteps = (int)(((long long)k * ES + KB - 1) / KB);

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES; s++) {
			mbar_init(FULL(s), 1);                     // our producer's expect_tx; then the TMA bytes
			mbar_init(EMPTY(s), SLOT_READERS * 4 * CM);   // one arrival per reading consumer warp of the cluster
		}
		mbar_fence_init();
	}
	// No CTA may multicast into a peer, or arrive on its barriers, before the peer initialised them.
#if CM > 1
	cluster_sync();
#else
	__syncthreads();
#endif
	const int cluster = blockIdx.x / CM;
	seg_walk walk(cluster, gridDim.x / CM, tiles_m2, tiles_n, ksteps);

	if (wg == 0) {
		regs_release<PRODUCER_REGS>();
		if (threadIdx.x == 0) {
			int s = 0, tm2, tn, kt0, kt1, q; unsigned phase = 0;
			while (walk.get(tm2, tn, kt0, kt1, q)) {
				const int tm = tm2 * CM + rank;
				for (int kt = kt0; kt < kt1; kt++) {
					mbar_wait(EMPTY(s), phase ^ 1);   // a fresh barrier counts as freed once
					mbar_expect_tx(FULL(s), A_BYTES + B_BYTES);
					tma_load_2d(sA + s * A_BYTES, &tmA, kt * (KB / ES), tm * BM, FULL(s));
#if CM > 1
					tma_load_2d_multicast(sB + s * B_BYTES + rank * (B_SHARE * KB), &tmB, kt * (KB / ES), tn * BN + rank * B_SHARE, FULL(s),
					                      (unsigned short)((1u << CM) - 1));
#else
					tma_load_2d(sB + s * B_BYTES, &tmB, kt * (KB / ES), tn * BN, FULL(s));
#endif
					if (++s == STAGES) { s = 0; phase ^= 1; }
				}
			}
		}
	} else {
		regs_claim<240>();
		const int lane = threadIdx.x % 32, t = threadIdx.x % 128;
		(void)t;   // read by the stream-K fix-up and the TMA epilogue only
		// The k-major A box of the slot holds BM rows; this warpgroup's 64-row halves start at a_off(h).
		auto a_off = [&](int h) { return (unsigned)((PINGPONG ? h : wg - 1) * 64 * KB); };
		// Slot s is free again in every CTA of the cluster as far as this warp is concerned.
		auto release = [&](int s) {
			if (lane == 0) {
#if CM > 1
				for (int r = 0; r < CM; r++) mbar_arrive_cluster(EMPTY(s), r);
#else
				mbar_arrive(EMPTY(s));
#endif
			}
		};
		// The wgmma descriptors' constant high word (stride 1024 bytes between 8-row groups, 128-byte
		// swizzle) and low words of slot 0 (leading offset 16 bytes, start addresses / 16).
		const unsigned long long desc_hi = wgmma_desc(0, 16, 1024) & ~0xFFFFFFFFull;
		const unsigned dA = (unsigned)wgmma_desc(sA, 16, 1024), dB = (unsigned)wgmma_desc(sB, 16, 1024);
		acc_t d[HALVES][ACC];
#pragma unroll
		for (int h = 0; h < HALVES; h++)
#pragma unroll
			for (int i = 0; i < ACC; i++) d[h][i] = 0;
		int s = 0; unsigned phase = 0;
		int tm2, tn, kt0, kt1, q;
#if EPILOGUE
		unsigned boxes_used = 0;
#endif
#if PINGPONG
		int turn = 0;
#endif
		while (walk.get(tm2, tn, kt0, kt1, q)) {
#if PINGPONG
			// The k loops take turns (named barriers 3 and 4): the owner of the CTA's tile i waits until
			// the owner of tile i-1 has waited on all of that tile's slots. A warpgroup that steps over
			// the other's slots is then at most one fill behind each slot's barrier; without the turn it
			// could take an earlier fill of a slot (a phase of the same parity) for its own.
			const int i = turn++;
			if ((i & 1) != wg - 1) {   // the other warpgroup's tile: step over its slots
				const int at = s + (kt1 - kt0);
				phase ^= (unsigned)(at / STAGES) & 1u;
				s = at % STAGES;
				continue;
			}
			if (i > 0) named_sync(3 + (i & 1), 256);
#endif
			const int tm = tm2 * CM + rank;
			const int col0 = tn * BN;
			auto row0 = [&](int h) { return tm * BM + (PINGPONG ? h : wg - 1) * 64; };
			tile_scales sc[HALVES];
#pragma unroll
			for (int h = 0; h < HALVES; h++) scales_load(sc[h], sa, sb, m, n, row0(h), col0);   // used by the store, after the loop
			int prev = -1;
			for (int kt = kt0; kt < kt1; kt++) {
				mbar_wait(FULL(s), phase);
#pragma unroll
				for (int h = 0; h < HALVES; h++) wgmma_fence_regs(d[h]);
				wgmma_fence();
				// Slot s's descriptors: slot 0's plus the offset / 16 in the start-address field (bits 0-13,
				// which cannot carry: shared memory ends below 256 KB), one add each instead of wgmma_desc's
				// masks and shifts before every wgmma.
				const unsigned da = dA + (unsigned)s * (A_BYTES / 16), db = dB + (unsigned)s * (B_BYTES / 16);
#pragma unroll
				for (int kk = 0; kk < KB / 32; kk++)
#pragma unroll
					for (int h = 0; h < HALVES; h++)
						wgmma_fmt<BN>(d[h], desc_hi | (da + (a_off(h) + kk * 32) / 16), desc_hi | (db + kk * 32 / 16), kt > kt0 || kk > 0);
				wgmma_commit();
				wgmma_wait<1>();                       // step kt-1 is done: its slot may be refilled
				if (prev >= 0) release(prev);
				prev = s;
				if (++s == STAGES) { s = 0; phase ^= 1; }
			}
#if PINGPONG
			{   // the other warpgroup's k loop may start (if the CTA has a tile i+1) while this one stores
				seg_walk peek = walk;
				int a, b, c, e, f;
				if (peek.get(a, b, c, e, f)) named_arrive(3 + ((i + 1) & 1), 256);
			}
#endif
			wgmma_wait<0>();
#pragma unroll
			for (int h = 0; h < HALVES; h++) wgmma_fence_regs(d[h]);
			if (prev >= 0) release(prev);
			if (kt1 <= kt0) {
#pragma unroll
				for (int h = 0; h < HALVES; h++)
#pragma unroll
					for (int i = 0; i < ACC; i++) d[h][i] = 0;
			}
#if STREAMK
			if (q >= 0 && (kt0 > 0 || kt1 < ksteps)) {
				// Part of a shared super-tile. The part that reaches its last k-step adds the others and
				// stores; every other part is the run's first (a run takes its later super-tile first), so
				// each cluster writes at most one, into slot `cluster` of the workspace, and counts it in
				// flags[q] before it computes anything it might wait for. The adder waits for the parts of
				// clusters owner(first) .. cluster - 1, which all computed theirs first.
				// The parts are unscaled sums: FP8's and INT8's scales are applied once, by the store.
				// With PINGPONG one warpgroup holds the whole part (HALVES x ACC sums a thread), whichever
				// of the two it is: the slot is the CTA's, not the warpgroup's.
				const int who = (int)rank * TILE_WGS + (PINGPONG ? 0 : wg - 1);
				unsigned *flag = flags + (size_t)q * CM * TILE_WGS + who;
				auto slot = [&](int c, int h) { return work + (((size_t)c * CM * TILE_WGS + who) * HALVES + h) * (128 * ACC) + t; };
				if (kt1 < ksteps) {
#pragma unroll
					for (int h = 0; h < HALVES; h++)
#pragma unroll
						for (int i = 0; i < ACC; i++) __stcg(slot(cluster, h) + i * 128, acc_to_work(d[h][i]));
					named_sync(wg, 128);   // every thread's part is written before the count says so
					if (t == 0) asm volatile("red.release.gpu.global.add.u32 [%0], 1;\n" ::"l"(flag) : "memory");
					continue;
				}
				const int first = q * ksteps;
				const int lo = walk.owner(first), hi = cluster - 1;
				if (t == 0) {
					unsigned seen;
					do asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(seen) : "l"(flag) : "memory");
					while (seen < (unsigned)(hi - lo + 1));
					*flag = 0;   // read only here: ready for the next launch
				}
				named_sync(wg, 128);
				for (int c = lo; c <= hi; c++)
#pragma unroll
					for (int h = 0; h < HALVES; h++)
#pragma unroll
						for (int i = 0; i < ACC; i++) d[h][i] += work_to_acc(__ldcg(slot(c, h) + i * 128));
			}
#endif
#pragma unroll
			for (int h = 0; h < HALVES; h++) {
#if EPILOGUE
				if (n % 4 == 0) {
					store_tile_tma(d[h], tmC, sc[h], sb != nullptr, sC + (wg - 1) * EPI_BOXES * BOX_BYTES, boxes_used, row0(h), col0);
					// BN % 32 == 16 (176): the boxes end 16 columns short of the tile's edge; those are
					// stored directly (the same bits as through a box: sum * (sa * sb))
					if constexpr (BN % 32 != 0) store_tile<BN / 32 * 4>(d[h], C, sc[h], sb != nullptr, m, n, row0(h), col0);
				} else
#endif
					store_tile(d[h], C, sc[h], sb != nullptr, m, n, row0(h), col0);
			}
		}
#if EPILOGUE
		if (t == 0) tma_store_wait_read();   // the boxes outlive their stores' reads
#endif
	}
	// A CTA's shared memory must outlive the peers' last arrivals on its barriers.
#if CM > 1
	cluster_sync();
#endif
	(void)tmC; (void)work; (void)flags;
#undef FULL
#undef EMPTY
}
