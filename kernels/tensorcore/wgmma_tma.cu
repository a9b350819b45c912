// Stage 4: TMA + wgmma, with every warpgroup doing the same work. The block's BM/64 warpgroups each
// multiply 64 rows of the BM x BN tile with wgmma m64nBNk16, reading A and B straight from shared
// memory; thread 0 also keeps a STAGES-deep ring of k-tiles filled with TMA.
//  - TMA: one instruction from one thread copies a whole box (A: BM x 64, B: 64 x 64) and counts
//    its bytes on the slot's mbarrier; no thread spends instructions on addresses or copies.
//  - The boxes land 128-byte swizzled, the layout wgmma reads without bank conflicts; outside the
//    matrix TMA fills zeros, so m, n and k need not be multiples of the tile.
//  - Each k-step: wait for slot s to fill, four wgmma (k = 64), wait for them, then a barrier so that
//    every warpgroup is done with slot s before thread 0 refills it with k-step kt + STAGES.
// That barrier and the wait before it are this stage's limit: the tensor cores idle while the block
// synchronises and while the one issuing thread, which also computes, gets round to the next load.
// Dynamic shared memory: STAGES * (BM*64 + 64*BN) * 2 bytes + 1024 for alignment and barriers.
#include "hopper.cuh"

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 256
#endif
#ifndef STAGES
#define STAGES 3
#endif
#define BK 64
#define NT (BM / 64 * 128)
#define A_BYTES (BM * BK * 2)
#define B_BYTES (BK * BN * 2)
#define B_BOX_BYTES (BK * 64 * 2)
#define ACC (BN / 2)

extern "C" __global__ void __launch_bounds__(NT, 1)
tc_wgmma_tma(const __grid_constant__ cc_tensormap tmA, const __grid_constant__ cc_tensormap tmB, float *C, int m, int n, int k)
{
	extern __shared__ unsigned char smem_raw[];
	const unsigned base = (smem_u32(smem_raw) + 1023) & ~1023u;   // the swizzle repeats every 1024 bytes
	const unsigned sA = base, sB = base + STAGES * A_BYTES, bars = sB + STAGES * B_BYTES;
	const int tm = blockIdx.y, tn = blockIdx.x, wg = threadIdx.x / 128;
	const int ksteps = (k + BK - 1) / BK;

	auto load = [&](int kt) {
		const int s = kt % STAGES;
		mbar_expect_tx(bars + 8 * s, A_BYTES + B_BYTES);
		tma_load_2d(sA + s * A_BYTES, &tmA, kt * BK, tm * BM, bars + 8 * s);
		for (int j = 0; j < BN / 64; j++)
			tma_load_2d(sB + s * B_BYTES + j * B_BOX_BYTES, &tmB, tn * BN + j * 64, kt * BK, bars + 8 * s);
	};
	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES; s++) mbar_init(bars + 8 * s, 1);
		mbar_fence_init();
		for (int kt = 0; kt < STAGES && kt < ksteps; kt++) load(kt);
	}
	__syncthreads();

	float d[ACC];
#pragma unroll
	for (int i = 0; i < ACC; i++) d[i] = 0.f;
	for (int kt = 0; kt < ksteps; kt++) {
		const int s = kt % STAGES;
		mbar_wait(bars + 8 * s, (kt / STAGES) & 1);
		wgmma_fence_regs(d);
		wgmma_fence();
#pragma unroll
		for (int kk = 0; kk < BK / 16; kk++) {
			// A: this warpgroup's 64 rows, rows of 128 bytes, 8-row groups 1024 bytes apart.
			unsigned long long da = wgmma_desc(sA + s * A_BYTES + wg * 64 * BK * 2 + kk * 32, 16, 1024);
			// B: N-major, 64-column boxes 8 KB apart, 8 k-rows 1024 bytes apart.
			unsigned long long db = wgmma_desc(sB + s * B_BYTES + kk * 2048, B_BOX_BYTES, 1024);
			wgmma_bf16<BN>(d, da, db, 1);
		}
		wgmma_commit();
		wgmma_wait<0>();
		wgmma_fence_regs(d);
		__syncthreads();                 // slot s is no longer read by anyone
		if (threadIdx.x == 0 && kt + STAGES < ksteps) load(kt + STAGES);
	}

	wgmma_store<BN>(d, C, m, n, tm * BM + wg * 64, tn * BN);
}
