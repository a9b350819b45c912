// The tensor-core GEMM of the tf32, bf16, fp16 and fp8 stages: one kernel, the number format chosen by
// the stage file (FMT_*), everything else the same, so that the stages differ only in what they store.
// It is the warp-specialised, persistent design of tensorcore/wgmma_ws with both operands k-major
// (a k-major operand's descriptor: 8-row groups of 128-byte rows, 1024 bytes apart):
//  - warpgroup 0 (one thread) loads, for each 128-byte slice of k, a BM x 128-byte box of A and a
//    BN x 128-byte box of the transposed B copy with TMA into a ring of STAGES slots, 128-byte
//    swizzled, counting the bytes on the slot's "full" mbarrier;
//  - warpgroups 1..BM/64 each multiply 64 rows of the tile by the BN columns: four wgmma per slot
//    (32 bytes of k each), one group kept in flight, the slot freed ("empty") when its group is done;
//  - setmaxnreg moves registers from the loader to the consumers' BN/2 accumulators a thread.
// TMA reads zeros outside the matrices, and C is written with bounds checks, so m and n may be
// anything; k's rows must be a multiple of 16 bytes (TMA). The FP8 stage passes sa and sb, the scales
// of A's rows and B's columns, and C[i][j] = sa[i] * sb[j] * (A8 . B8)[i][j]; the others pass NULL.
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
#define KB 128                          // bytes of k per slot: one swizzle row
#define CONSUMERS (BM / 64)
#define NT ((CONSUMERS + 1) * 128)
#define A_BYTES (BM * KB)
#define B_BYTES (BN * KB)
#define ACC (BN / 2)

// Tile t in grouped order: GROUP_M tile rows at a time, so concurrent tiles share A and B in L2.
__device__ __forceinline__ void tile_coords(int t, int tiles_m, int tiles_n, int &tm, int &tn)
{
	const int per_group = GROUP_M * tiles_n, first = (t / per_group) * GROUP_M;
	const int rows = min(tiles_m - first, GROUP_M), r = t % per_group;
	tm = first + r % rows;
	tn = r / rows;
}

// Warp w of a consumer warpgroup holds rows 16w + l/4 and 16w + l/4 + 8 of its 64, columns
// 8j + 2(l%4) and the next, for j < N/8 (the m64nNk* accumulator layout).
__device__ __forceinline__ void store_tile(const float (&d)[ACC], float *C, const float *sa, const float *sb,
                                           int m, int n, int row0, int col0)
{
	const int lane = threadIdx.x % 32, warp = (threadIdx.x % 128) / 32;
#pragma unroll
	for (int h = 0; h < 2; h++) {
		const int row = row0 + warp * 16 + lane / 4 + 8 * h;
		if (row >= m) continue;
		const float s = sa ? sa[row] : 1.f;
#pragma unroll
		for (int j = 0; j < BN / 8; j++) {
#pragma unroll
			for (int e = 0; e < 2; e++) {
				const int col = col0 + 8 * j + 2 * (lane % 4) + e;
				if (col < n) C[(size_t)row * n + col] = sb ? s * sb[col] * d[4 * j + 2 * h + e] : d[4 * j + 2 * h + e];
			}
		}
	}
}

__device__ __forceinline__ void tc_gemm(const cc_tensormap &tmA, const cc_tensormap &tmB, float *C,
                                        const float *sa, const float *sb, int m, int n, int k)
{
	extern __shared__ unsigned char smem_raw[];
	const unsigned base = (smem_u32(smem_raw) + 1023) & ~1023u;   // the swizzle repeats every 1024 bytes
	const unsigned sA = base, sB = base + STAGES * A_BYTES, bars = sB + STAGES * B_BYTES;
#define FULL(s) (bars + 8 * (s))
#define EMPTY(s) (bars + 8 * (STAGES + (s)))
	const int wg = threadIdx.x / 128;
	const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN, tiles = tiles_m * tiles_n;
	const int ksteps = (int)(((long long)k * ES + KB - 1) / KB);

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES; s++) {
			mbar_init(FULL(s), 1);
			mbar_init(EMPTY(s), CONSUMERS * 4);
		}
		mbar_fence_init();
	}
	__syncthreads();

	if (wg == 0) {
		regs_release<24>();
		if (threadIdx.x != 0) return;
		int s = 0; unsigned phase = 0;
		for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
			int tm, tn;
			tile_coords(t, tiles_m, tiles_n, tm, tn);
			for (int kt = 0; kt < ksteps; kt++) {
				mbar_wait(EMPTY(s), phase ^ 1);
				mbar_expect_tx(FULL(s), A_BYTES + B_BYTES);
				tma_load_2d(sA + s * A_BYTES, &tmA, kt * (KB / ES), tm * BM, FULL(s));
				tma_load_2d(sB + s * B_BYTES, &tmB, kt * (KB / ES), tn * BN, FULL(s));
				if (++s == STAGES) { s = 0; phase ^= 1; }
			}
		}
		return;
	}

	regs_claim<240>();
	const int lane = threadIdx.x % 32;
	const unsigned a_off = (wg - 1) * 64 * KB;   // this warpgroup's 64 rows of the A tile
	float d[ACC];
#pragma unroll
	for (int i = 0; i < ACC; i++) d[i] = 0.f;
	int s = 0; unsigned phase = 0;
	for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
		int tm, tn;
		tile_coords(t, tiles_m, tiles_n, tm, tn);
		int prev = -1;
		for (int kt = 0; kt < ksteps; kt++) {
			mbar_wait(FULL(s), phase);
			wgmma_fence_regs(d);
			wgmma_fence();
#pragma unroll
			for (int kk = 0; kk < KB / 32; kk++)
				wgmma_fmt<BN>(d, wgmma_desc(sA + s * A_BYTES + a_off + kk * 32, 16, 1024), wgmma_desc(sB + s * B_BYTES + kk * 32, 16, 1024),
				              kt > 0 || kk > 0);
			wgmma_commit();
			wgmma_wait<1>();
			if (prev >= 0 && lane == 0) mbar_arrive(EMPTY(prev));
			prev = s;
			if (++s == STAGES) { s = 0; phase ^= 1; }
		}
		wgmma_wait<0>();
		wgmma_fence_regs(d);
		if (prev >= 0 && lane == 0) mbar_arrive(EMPTY(prev));
		if (ksteps == 0) {
#pragma unroll
			for (int i = 0; i < ACC; i++) d[i] = 0.f;
		}
		store_tile(d, C, sa, sb, m, n, tm * BM + (wg - 1) * 64, tn * BN);
	}
#undef FULL
#undef EMPTY
}
