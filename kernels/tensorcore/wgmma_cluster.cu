// Stages 6 to 9 (wgmma_cluster: ORDER 0; wgmma_hilbert: ORDER 1; wgmma_tmastore: EPILOGUE 1;
// wgmma_streamk: STREAMK 1): the warp-specialised, persistent pipeline of stage 5, run by clusters of
// CM CTAs that share the tile of B through TMA multicast, in a tile order chosen for L2.
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
//  - Epilogue (EPILOGUE 1, stage 8, wgmma_tmastore): instead of each thread storing its accumulators
//    to C in global memory (8-byte pieces of 8 rows at a time, which keeps both consumer warpgroups
//    from issuing the next tile's wgmmas until the stores are out), each consumer writes them into
//    EPI_BOXES boxes of 64 rows x 32 floats in shared memory (128-byte swizzle, so the 8 rows of a
//    store land in different banks) and one thread hands each box to TMA, which writes it to C while
//    the warpgroup goes on. A box is reused once its earlier store has read it (wait_group.read).
// Edges: TMA fills zeros outside A and B and the stores skip what falls outside C, so any m works; a
// cluster's second CTA may get a tile entirely below C (m not a multiple of CM*BM) and computes zeros.
// Dynamic shared memory: STAGES * (BM*64 + 64*BN) * 2 bytes for the ring, EPILOGUE * (BM/64) * EPI_BOXES
// * 8192 for the staging boxes, + 1024 for alignment and 16 * STAGES for the barriers.
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
#ifndef EPILOGUE
#define EPILOGUE 0
#endif
#ifndef EPI_BOXES
#define EPI_BOXES 2
#endif
#ifndef STREAMK
#define STREAMK 0
#endif
#define BOX_BYTES (64 * 32 * 4)
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

#include "seg_walk.cuh"

extern "C" __global__ void __launch_bounds__(NT, 1) CLUSTER_DIMS
tc_wgmma_cluster(const __grid_constant__ cc_tensormap tmA, const __grid_constant__ cc_tensormap tmB,
                 const __grid_constant__ cc_tensormap tmC, float *C, float *work, unsigned *flags, int m, int n, int k)
{
	extern __shared__ unsigned char smem_raw[];
	// The 128-byte swizzle repeats every 1024 bytes: each tile must start on a 1024-byte boundary. The
	// offset is the same in every CTA of the cluster, which multicast relies on.
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
	const int cluster = blockIdx.x / CM;
	seg_walk walk(cluster, gridDim.x / CM, tiles_m2, tiles_n, ksteps);

	if (wg == 0) {
		regs_release<24>();
		if (threadIdx.x == 0) {
			int s = 0, tm2, tn, kt0, kt1, q; unsigned phase = 0;
			while (walk.get(tm2, tn, kt0, kt1, q)) {
				const int tm = tm2 * CM + rank;
				for (int kt = kt0; kt < kt1; kt++) {
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
		int tm2, tn, kt0, kt1, q;
		const int t = threadIdx.x % 128;
		const bool leader = t == 0;
		while (walk.get(tm2, tn, kt0, kt1, q)) {
			const int tm = tm2 * CM + rank;
			int prev = -1;
			for (int kt = kt0; kt < kt1; kt++) {
				mbar_wait(FULL(s), phase);
				wgmma_fence_regs(d);
				wgmma_fence();
#pragma unroll
				for (int kk = 0; kk < BK / 16; kk++) {
					// A: rows of 128 bytes, 8-row groups 1024 bytes apart (SBO); a 16-wide k slice is 32 bytes on.
					unsigned long long da = wgmma_desc(sA + s * A_BYTES + a_off + kk * 32, 16, 1024);
					// B: 64 x 64 boxes 8 KB apart (LBO, along n); 8 k-rows 1024 bytes apart (SBO); 16 k-rows = 2 KB.
					unsigned long long db = wgmma_desc(sB + s * B_BYTES + kk * 2048, B_BOX_BYTES, 1024);
					wgmma_bf16<BN>(d, da, db, kt > kt0 || kk > 0);
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
#if STREAMK
			if (q >= 0 && (kt0 > 0 || kt1 < ksteps)) {
				// Part of a shared super-tile. The part that reaches its last k-step adds the others and
				// stores; every other part is the run's first (a run takes its later super-tile first), so
				// each cluster writes at most one, into slot `cluster` of the workspace, and counts it in
				// flags[q] before it computes anything it might wait for. The adder waits for the parts of
				// clusters owner(first) .. cluster - 1, which all computed theirs first.
				const int who = (int)rank * CONSUMERS + (wg - 1);
				unsigned *flag = flags + (size_t)q * CM * CONSUMERS + who;
				if (kt1 < ksteps) {
					float *w = work + ((size_t)cluster * CM * CONSUMERS + who) * (128 * ACC) + t;
#pragma unroll
					for (int i = 0; i < ACC; i++) __stcg(w + i * 128, d[i]);
					named_sync(wg, 128);   // every thread's part is written before the count says so
					if (leader) asm volatile("red.release.gpu.global.add.u32 [%0], 1;\n" ::"l"(flag) : "memory");
					continue;
				}
				const int first = q * ksteps;
				const int lo = walk.owner(first), hi = cluster - 1;
				if (leader) {
					unsigned seen;
					do asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(seen) : "l"(flag) : "memory");
					while (seen < (unsigned)(hi - lo + 1));
					*flag = 0;   // read only here: ready for the next launch
				}
				named_sync(wg, 128);
				for (int c = lo; c <= hi; c++) {
					const float *w = work + ((size_t)c * CM * CONSUMERS + who) * (128 * ACC) + t;
#pragma unroll
					for (int i = 0; i < ACC; i++) d[i] += __ldcg(w + i * 128);
				}
			}
#endif

#if EPILOGUE
			// Box b holds columns 32b .. 32b+31 of this warpgroup's 64 rows. The thread's accumulators
			// d[4j .. 4j+3] are columns 8j + 2(lane%4) + {0, 1} of rows r and r + 8.
			const int r = t / 32 * 16 + lane / 4;
			const unsigned mine = sC + (wg - 1) * EPI_BOXES * BOX_BYTES;
#pragma unroll
			for (int b = 0; b < BN / 32; b++) {
				const unsigned box = mine + (b % EPI_BOXES) * BOX_BYTES;
				if (leader) tma_store_wait_read_n<EPI_BOXES - 1>();   // this box's last store has read it
				named_sync(wg, 128);
#pragma unroll
				for (int e = 0; e < 4; e++) {
					const int j = 4 * b + e, chunk = 2 * e + (lane % 4) / 2, within = 8 * (lane % 2);
					// 128-byte swizzle: the 16-byte chunk index is XORed with the row's index mod 8.
					const unsigned at = box + r * 128 + ((chunk ^ (r % 8)) << 4) + within;
					asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(at), "f"(d[4 * j]), "f"(d[4 * j + 1]) : "memory");
					asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(at + 8 * 128), "f"(d[4 * j + 2]), "f"(d[4 * j + 3]) : "memory");
				}
				fence_async_shared();   // the writes above are seen by the TMA unit
				named_sync(wg, 128);
				if (leader) {
					tma_store_2d(&tmC, box, tn * BN + 32 * b, tm * BM + (wg - 1) * 64);
					tma_store_commit();
				}
			}
#else
			wgmma_store<BN>(d, C, m, n, tm * BM + (wg - 1) * 64, tn * BN);
#endif
		}
#if EPILOGUE
		if (threadIdx.x % 128 == 0) tma_store_wait_read();   // the boxes outlive their stores' reads
#endif
	}
	// A CTA's shared memory must outlive the peers' last arrivals on its barriers.
#if CM > 1
	cluster_sync();
#endif
}
