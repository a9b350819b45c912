// Stage 5: Hopper's way. TMA loads, wgmma from shared memory, and warp specialisation: one warpgroup
// only moves data, CONSUMERS warpgroups only multiply, and they hand tiles to each other through a
// STAGES-deep ring of shared-memory buffers guarded by mbarriers. The grid is persistent: one block per
// SM walks output tiles in a grouped order, so the producer is already loading the next tile while the
// consumers are still writing the last one out.
//  - Producer (warpgroup 0, one thread): for each k-step, wait until ring slot s is free (empty[s]),
//    announce the bytes to come on full[s], and issue one TMA box of A (BM x 64) and BN/64 boxes of B
//    (64 x 64). TMA writes them 128-byte swizzled, the layout wgmma reads without bank conflicts, and
//    fills zeros outside the matrix, so m, n and k need not be multiples of the tile.
//  - Consumers (warpgroups 1..CONSUMERS, 64 rows of the tile each): wait on full[s], issue four
//    m64nBNk16 wgmma (k = 64) that read A and B straight from slot s, and keep one group in flight: after
//    issuing step t they wait for step t-1 and only then free its slot (one arrival per warp).
//  - setmaxnreg moves registers from the producer (which needs few) to the consumers, whose 64 x BN
//    accumulators take BN/2 registers a thread.
// Dynamic shared memory: STAGES * (BM*64 + 64*BN) * 2 bytes for the ring + 1024 for alignment and barriers.
#include "hopper.cuh"

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
#define BK 64
#define CONSUMERS (BM / 64)
#define NT ((CONSUMERS + 1) * 128)
#define A_BYTES (BM * BK * 2)
#define B_BYTES (BK * BN * 2)
#define B_BOX_BYTES (BK * 64 * 2)
#define ACC (BN / 2)

// Tile t of the grid in grouped order: down GROUP_M tile rows, then right, so the SMs working at
// the same time share rows of A and columns of B in L2.
__device__ __forceinline__ void tile_coords(int t, int tiles_m, int tiles_n, int &tm, int &tn)
{
	int per_group = GROUP_M * tiles_n;
	int first = (t / per_group) * GROUP_M;
	int rows = min(tiles_m - first, GROUP_M);
	int r = t % per_group;
	tm = first + r % rows;
	tn = r / rows;
}

extern "C" __global__ void __launch_bounds__(NT, 1)
tc_wgmma_ws(const __grid_constant__ cc_tensormap tmA, const __grid_constant__ cc_tensormap tmB, float *C, int m, int n, int k)
{
	extern __shared__ unsigned char smem_raw[];
	// The 128-byte swizzle repeats every 1024 bytes: each tile must start on a 1024-byte boundary.
	const unsigned base = (smem_u32(smem_raw) + 1023) & ~1023u;
	const unsigned sA = base, sB = base + STAGES * A_BYTES, bars = sB + STAGES * B_BYTES;
#define FULL(s) (bars + 8 * (s))
#define EMPTY(s) (bars + 8 * (STAGES + (s)))
	const int wg = threadIdx.x / 128;
	const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN, tiles = tiles_m * tiles_n;
	const int ksteps = (k + BK - 1) / BK;

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES; s++) {
			mbar_init(FULL(s), 1);                 // the producer's expect_tx; then the TMA bytes
			mbar_init(EMPTY(s), CONSUMERS * 4);    // one arrival per consumer warp
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
				mbar_wait(EMPTY(s), phase ^ 1);        // a fresh barrier counts as freed once
				mbar_expect_tx(FULL(s), A_BYTES + B_BYTES);
				tma_load_2d(sA + s * A_BYTES, &tmA, kt * BK, tm * BM, FULL(s));
				for (int j = 0; j < BN / 64; j++)
					tma_load_2d(sB + s * B_BYTES + j * B_BOX_BYTES, &tmB, tn * BN + j * 64, kt * BK, FULL(s));
				if (++s == STAGES) { s = 0; phase ^= 1; }
			}
		}
		return;
	}

	regs_claim<240>();
	const int lane = threadIdx.x % 32;
	const unsigned a_off = (wg - 1) * 64 * BK * 2;   // this warpgroup's 64 rows of the A tile
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
			for (int kk = 0; kk < BK / 16; kk++) {
				// A: rows of 128 bytes, 8-row groups 1024 bytes apart (SBO); a 16-wide k slice is 32 bytes on.
				unsigned long long da = wgmma_desc(sA + s * A_BYTES + a_off + kk * 32, 16, 1024);
				// B: 64 x 64 boxes 8 KB apart (LBO, along n); 8 k-rows 1024 bytes apart (SBO); 16 k-rows = 2 KB.
				unsigned long long db = wgmma_desc(sB + s * B_BYTES + kk * 2048, B_BOX_BYTES, 1024);
				wgmma_bf16<BN>(d, da, db, kt > 0 || kk > 0);
			}
			wgmma_commit();
			wgmma_wait<1>();                           // step kt-1 is done: its slot may be refilled
			if (prev >= 0 && lane == 0) mbar_arrive(EMPTY(prev));
			prev = s;
			if (++s == STAGES) { s = 0; phase ^= 1; }
		}
		wgmma_wait<0>();
		wgmma_fence_regs(d);
		if (prev >= 0 && lane == 0) mbar_arrive(EMPTY(prev));

		wgmma_store<BN>(d, C, m, n, tm * BM + (wg - 1) * 64, tn * BN);
	}
}
