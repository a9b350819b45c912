// Stages 6 and 7 (wgmma_cluster: ORDER 0; wgmma_hilbert: ORDER 1): the warp-specialised, persistent
// pipeline of stage 5, run by clusters of CM CTAs that share the tile of B through TMA multicast, in a
// tile order chosen for L2.
//  - Cluster: the CM CTAs of a cluster (__cluster_dims__, so a plain launch makes clusters) compute CM
//    tiles on top of each other (rows tm = CM*i + rank, the same columns tn). They need the same 64 x BN
//    slice of B at every k-step, so each CTA fetches only its share of B's 64-column boxes (box j when
//    j % CM == rank) and TMA multicast writes each box into every CTA of the cluster, at the same offset,
//    counting its bytes on the same slot's "full" barrier in each. A is not shared: each CTA loads its
//    own BM rows. Per CTA, L2 serves A_BYTES + B_BYTES / CM a k-step instead of A_BYTES + B_BYTES.
//  - A slot may be refilled only when every CTA of the cluster is done with it (the multicast writes
//    into all of them), so "empty" counts the arrivals of the consumer warps of the whole cluster: each
//    consumer warp arrives on the empty barrier of every CTA (mapa gives the peer's address).
//  - Order: the CTAs walk super-tiles of CM*BM x BN, cluster c taking c, c + clusters, ... in grouped
//    order (ORDER 0: GROUP_M super-rows at a time) or along a Hilbert curve (ORDER 1: over the smallest
//    power-of-two square that holds the grid of super-tiles, skipping cells outside it), so the tiles
//    in flight at one time cover a compact patch of C and share rows of A and columns of B in L2.
//  - Clusters: at most CLUSTERS of them (the grid's cap), since a persistent grid should launch no more
//    than the GPU holds at once (cudaOccupancyMaxActiveClusters).
//  - BN 192 is offered for the last wave: at 8192^3, pairs of 128 x 256 tiles make 1024 pairs for 66
//    clusters, 15.5 waves, and clusters with 15 idle while the others finish their 16th; with 128 x 192
//    tiles it is 20.8 waves. On the H100 the narrower tile lost more than the fuller last wave gained.
//  - Remote arrivals are released at CTA scope: a cluster-scope release puts a memory barrier in front
//    of each (measured on the H100: half of all stalls, half the speed).
// Edges: TMA fills zeros outside A and B and the stores skip what falls outside C, so any m works; a
// cluster's second CTA may get a tile entirely below C (m not a multiple of CM*BM) and computes zeros.
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
#define GROUP_M 8
#endif
#ifndef CM
#define CM 2
#endif
#ifndef ORDER
#define ORDER 0
#endif
#define BK 64
#define CONSUMERS (BM / 64)
#define NT ((CONSUMERS + 1) * 128)
#define A_BYTES (BM * BK * 2)
#define B_BYTES (BK * BN * 2)
#define B_BOX_BYTES (BK * 64 * 2)
#define ACC (BN / 2)
#if CM > 1
#define CLUSTER_DIMS __cluster_dims__(CM, 1, 1)
#else
#define CLUSTER_DIMS
#endif

// The super-tiles (CM*BM x BN) of one cluster, in order; producer and consumers walk the same list.
struct tile_walk {
	int tiles_m2, tiles_n, step, next, dim;
	__device__ tile_walk(int cluster, int clusters, int tm2, int tn) : tiles_m2(tm2), tiles_n(tn), step(clusters), next(cluster)
	{
		dim = 1;
		while (dim < tm2 || dim < tn) dim *= 2;
	}
	// The next super-tile (row tm2, column tn); false when there is none.
	__device__ __forceinline__ bool get(int &tm2, int &tn)
	{
#if ORDER == 1
		// Hilbert curve: cell d of a dim x dim square to (x, y), two bits of d per level.
		for (; next < dim * dim; next += step) {
			int x = 0, y = 0, t = next;
			for (int s = 1; s < dim; s *= 2) {
				int rx = 1 & (t / 2), ry = 1 & (t ^ rx);
				if (ry == 0) {
					if (rx == 1) { x = s - 1 - x; y = s - 1 - y; }
					int tmp = x; x = y; y = tmp;
				}
				x += s * rx; y += s * ry;
				t /= 4;
			}
			if (x < tiles_m2 && y < tiles_n) { tm2 = x; tn = y; next += step; return true; }
		}
		return false;
#else
		// Grouped: down GROUP_M super-rows, then right.
		if (next >= tiles_m2 * tiles_n) return false;
		int per_group = GROUP_M * tiles_n, first = (next / per_group) * GROUP_M;
		int rows = min(tiles_m2 - first, GROUP_M), r = next % per_group;
		tm2 = first + r % rows;
		tn = r / rows;
		next += step;
		return true;
#endif
	}
};

extern "C" __global__ void __launch_bounds__(NT, 1) CLUSTER_DIMS
tc_wgmma_cluster(const __grid_constant__ cc_tensormap tmA, const __grid_constant__ cc_tensormap tmB, float *C, int m, int n, int k)
{
	extern __shared__ unsigned char smem_raw[];
	// The 128-byte swizzle repeats every 1024 bytes: each tile must start on a 1024-byte boundary. The
	// offset is the same in every CTA of the cluster, which multicast relies on.
	const unsigned base = (smem_u32(smem_raw) + 1023) & ~1023u;
	const unsigned sA = base, sB = base + STAGES * A_BYTES, bars = sB + STAGES * B_BYTES;
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
	const int ksteps = (k + BK - 1) / BK;

	if (threadIdx.x == 0) {
		for (int s = 0; s < STAGES; s++) {
			mbar_init(FULL(s), 1);                    // our producer's expect_tx; then the TMA bytes
			mbar_init(EMPTY(s), CONSUMERS * 4 * CM);  // one arrival per consumer warp of the cluster
		}
		mbar_fence_init();
	}
	// No CTA may multicast into a peer, or arrive on its barriers, before the peer initialised them.
#if CM > 1
	cluster_sync();
#else
	__syncthreads();
#endif
	tile_walk walk(blockIdx.x / CM, gridDim.x / CM, tiles_m2, tiles_n);

	if (wg == 0) {
		regs_release<24>();
		if (threadIdx.x == 0) {
			int s = 0, tm2, tn; unsigned phase = 0;
			while (walk.get(tm2, tn)) {
				const int tm = tm2 * CM + rank;
				for (int kt = 0; kt < ksteps; kt++) {
					mbar_wait(EMPTY(s), phase ^ 1);   // a fresh barrier counts as freed once
					mbar_expect_tx(FULL(s), A_BYTES + B_BYTES);
					tma_load_2d(sA + s * A_BYTES, &tmA, kt * BK, tm * BM, FULL(s));
					for (int j = 0; j < BN / 64; j++) {
#if CM > 1
						if (j % CM == (int)rank)
							tma_load_2d_multicast(sB + s * B_BYTES + j * B_BOX_BYTES, &tmB, tn * BN + j * 64, kt * BK, FULL(s),
							                      (unsigned short)((1u << CM) - 1));
#else
						tma_load_2d(sB + s * B_BYTES + j * B_BOX_BYTES, &tmB, tn * BN + j * 64, kt * BK, FULL(s));
#endif
					}
					if (++s == STAGES) { s = 0; phase ^= 1; }
				}
			}
		}
	} else {
		regs_claim<240>();
		const int lane = threadIdx.x % 32;
		const unsigned a_off = (wg - 1) * 64 * BK * 2;   // this warpgroup's 64 rows of the A tile
		float d[ACC];
#pragma unroll
		for (int i = 0; i < ACC; i++) d[i] = 0.f;
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
		int s = 0; unsigned phase = 0;
		int tm2, tn;
		while (walk.get(tm2, tn)) {
			const int tm = tm2 * CM + rank;
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
				wgmma_wait<1>();                       // step kt-1 is done: its slot may be refilled
				if (prev >= 0) release(prev);
				prev = s;
				if (++s == STAGES) { s = 0; phase ^= 1; }
			}
			wgmma_wait<0>();
			wgmma_fence_regs(d);
			if (prev >= 0) release(prev);

			wgmma_store<BN>(d, C, m, n, tm * BM + (wg - 1) * 64, tn * BN);
		}
	}
	// A CTA's shared memory must outlive the peers' last arrivals on its barriers.
#if CM > 1
	cluster_sync();
#endif
}
