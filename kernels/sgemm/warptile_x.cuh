// Stage 9's kernel with the two settings that change its main loop (warptile.cu includes this file
// instead of its own kernel when FRAG is 1 or CLUSTER is 2; the tiling, the warp layout, A's path
// (ALOAD 1: float4 loads one tile ahead in registers, stored transposed) and the epilogue are the same).
//  - FRAG 1: the fragments of shared memory are double-buffered in registers. Slice d+1's A and B
//    values (TM + TN floats) are loaded into the second set while slice d's TM x TN FMAs run, and the
//    barrier that makes the next k-tile visible moves into the last slice, before its FMAs, so that
//    slice 0 of tile t+1 is loaded while slice BK-1 of tile t is multiplied (CUTLASS's SIMT
//    mainloop). The copy of B for tile t+STAGES starts right after that barrier, into tile t's slot.
//  - CLUSTER 2: two CTAs along m (a __cluster_dims__(1, 2, 1) cluster: C tiles one above the other)
//    need the same B tile. Each loads half of it, rank r the k-rows [r*BK/2, (r+1)*BK/2), from global
//    memory into registers one tile ahead (as A), and stores it after the math into its own shared
//    memory and, through distributed shared memory (mapa + st.shared::cluster), into its partner's,
//    at the same offset. One cluster barrier per k-tile (barrier.cluster.arrive.release after the
//    stores, .wait.acquire before the slot is read) guards the slots of both CTAs: a slot is
//    rewritten only after both CTAs are done reading it, since a CTA arrives only after its math on
//    the tile before. B's traffic from L2 halves; both operands come through registers, so STAGES
//    beyond 2 only adds shared memory.
#ifndef FRAG
#define FRAG 0
#endif
#ifndef CLUSTER
#define CLUSTER 1
#endif
#if ALOAD != 1
#error "FRAG 1 and CLUSTER 2 are written for ALOAD 1"
#endif
#if CLUSTER > 1
#define WT_CLUSTER_DIMS __cluster_dims__(1, CLUSTER, 1)
#else
#define WT_CLUSTER_DIMS
#endif

#if CLUSTER > 1
__device__ __forceinline__ unsigned wt_cluster_rank()
{
	unsigned r;
	asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
	return r;
}
// The split cluster barrier: arrive after this thread's writes (release: seen by whoever waits), wait
// until every thread of every CTA of the cluster has arrived (acquire: their writes are seen after).
__device__ __forceinline__ void wt_cluster_arrive() { asm volatile("barrier.cluster.arrive.release;\n" ::: "memory"); }
__device__ __forceinline__ void wt_cluster_wait() { asm volatile("barrier.cluster.wait.acquire;\n" ::: "memory"); }
// The address of the same shared-memory offset in CTA `rank` of the cluster.
__device__ __forceinline__ unsigned wt_mapa(unsigned addr, unsigned rank)
{
	unsigned r;
	asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(r) : "r"(addr), "r"(rank));
	return r;
}
__device__ __forceinline__ void wt_st_cluster(unsigned addr, float4 v)
{
	asm volatile("st.shared::cluster.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory");
}
#endif

extern "C" __global__ void __launch_bounds__(NT, MINB) WT_CLUSTER_DIMS
sgemm_warptile(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
               int m, int n, int k)
{
	extern __shared__ __align__(16) float smem[];
	float *As = smem;                          // STAGES tiles of BK * LDA_S (A transposed, padded)
	float *Bs = smem + STAGES * BK * LDA_S;    // STAGES tiles of BK * BN
	const int tid = threadIdx.x;
	const int warp = tid / 32, lane = tid % 32;
	const int wrow = (warp / (BN / WN)) * WM;       // warp tile origin inside the block tile
	const int wcol = (warp % (BN / WN)) * WN;
	const int lrow = lane / LN, lcol = lane % LN;
	const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
	const float *Ab = A + (size_t)bm * k;
	const float *Bb = B + bn;
	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; ++i)
#pragma unroll
		for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

	float4 pa[A_LOADS];
	auto gload_a = [&](int k0) { a_gload(pa, Ab, k, k0, tid); };
	auto sstore_a = [&](int buf) { a_sstore(pa, As, buf, tid); };
#if CLUSTER > 1
	// This CTA's half of B's tile: BK/CLUSTER rows of BN, as float4, one tile ahead in registers.
#define B_HALF (BK / CLUSTER)
#define B_LOADS ((B_HALF * BN / 4 + NT - 1) / NT)
	const unsigned rank = wt_cluster_rank();
	const unsigned peer = rank ^ 1;
	const int brow0 = rank * B_HALF;
	const unsigned bs_local = smem_addr(Bs);
	const unsigned bs_peer = wt_mapa(bs_local, peer);
	float4 pb[B_LOADS];
	auto gload_b = [&](int k0) {
#pragma unroll
		for (int s = 0; s < B_LOADS; ++s) {
			const int i = tid + s * NT;
			if (i < B_HALF * BN / 4) {
				const int r = brow0 + i / (BN / 4), c = (i % (BN / 4)) * 4;
				pb[s] = *reinterpret_cast<const float4 *>(Bb + (size_t)(k0 + r) * n + c);
			}
		}
	};
	auto sstore_b = [&](int buf) {      // into this CTA's slot and the partner's, at the same offset
#pragma unroll
		for (int s = 0; s < B_LOADS; ++s) {
			const int i = tid + s * NT;
			if (i >= B_HALF * BN / 4) break;
			const int r = brow0 + i / (BN / 4), c = (i % (BN / 4)) * 4;
			const int off = buf * BK * BN + r * BN + c;
			*reinterpret_cast<float4 *>(&Bs[off]) = pb[s];
			wt_st_cluster(bs_peer + 4u * off, pb[s]);
		}
	};
#else
	auto load_b = [&](int buf, int k0) {
#pragma unroll
		for (int s = 0; s < (BK * BN / 4 + NT - 1) / NT; ++s) {
			const int i = tid + s * NT;
			if (i >= BK * BN / 4) break;
			const int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
			cp_async16(&Bs[buf * BK * BN + r * BN + c], Bb + (size_t)(k0 + r) * n + c);
		}
	};
#endif

	const int ntiles = k / BK;
	// publish(t): tile t's register-staged operands into slot t % STAGES. sync_begin / sync_end(t):
	// the barrier after which tile t is readable in every CTA that reads it and every reader of the
	// slot that tile t + STAGES - 1 (+1 at FRAG 1) refills is done; between the two halves, this
	// thread's registers for the next tile are free, so its global loads go there.
	auto publish = [&](int t) {
		sstore_a(t % STAGES);
#if CLUSTER > 1
		sstore_b(t % STAGES);
#endif
	};
	auto sync_begin = [&]() {
#if CLUSTER > 1
		wt_cluster_arrive();
#endif
	};
	auto sync_end = [&](int t) {           // tile t becomes readable
#if CLUSTER > 1
		wt_cluster_wait();
		(void)t;
#else
		// cp.async groups: tiles 0 .. STAGES-1 in the prologue, then tile t + STAGES - 1 at each
		// sync_end(t), t >= 1: tile t has landed when at most STAGES - 1 (t = 0) or STAGES - 2
		// groups are pending.
		if (t == 0) asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 1) : "memory");
		else cp_async_wait_stages();
		__syncthreads();
		if (t >= 1) {
			const int nt = t + STAGES - 1;     // into the slot of tile t - 1, read by no one now
			if (nt < ntiles) load_b(nt % STAGES, nt * BK);
			cp_async_commit();
		}
#endif
	};

	// Prologue: tile 0 published, loads of tile 1 in flight.
#if CLUSTER > 1
	wt_cluster_arrive();                   // the partner has started: its shared memory may be written
	wt_cluster_wait();
	gload_b(0);
#else
#pragma unroll
	for (int s = 0; s < STAGES; ++s) {
		if (s < ntiles) load_b(s, s * BK);
		cp_async_commit();                 // always commit, so that group counting stays simple
	}
#endif
	gload_a(0);
	publish(0);
	sync_begin();
	if (1 < ntiles) {
		gload_a(BK);
#if CLUSTER > 1
		gload_b(BK);
#endif
	}
	sync_end(0);

	float ra[2][TM], rb[2][TN];
	auto load_frag = [&](int f, int buf, int d) {
		const float *as = As + buf * BK * LDA_S + d * LDA_S + wrow + lrow * 4;
		const float *bs = Bs + buf * BK * BN + d * BN + wcol + lcol * 4;
#pragma unroll
		for (int i = 0; i < TM / 4; ++i) {
			const float4 v = *reinterpret_cast<const float4 *>(&as[i * LM * 4]);
			ra[f][4 * i] = v.x; ra[f][4 * i + 1] = v.y; ra[f][4 * i + 2] = v.z; ra[f][4 * i + 3] = v.w;
		}
#pragma unroll
		for (int j = 0; j < TN / 4; ++j) {
			const float4 v = *reinterpret_cast<const float4 *>(&bs[j * LN * 4]);
			rb[f][4 * j] = v.x; rb[f][4 * j + 1] = v.y; rb[f][4 * j + 2] = v.z; rb[f][4 * j + 3] = v.w;
		}
	};
	// The next tile: published, the barrier begun, the loads of the one after issued, the barrier ended.
	auto advance = [&](int t) {             // t: the tile just computed (or in its last slice)
		if (t + 1 >= ntiles) return;
		publish(t + 1);
		sync_begin();
		if (t + 2 < ntiles) {
			gload_a((t + 2) * BK);
#if CLUSTER > 1
			gload_b((t + 2) * BK);
#endif
		}
		sync_end(t + 1);
	};
#if FRAG
	load_frag(0, 0, 0);
#endif
	for (int t = 0; t < ntiles; ++t) {
		const int cur = t % STAGES;
#pragma unroll
		for (int d = 0; d < BK; ++d) {
#if FRAG
			const int f = d & 1;
			if (d == BK - 1) advance(t);    // slice BK-1's fragments are in registers already
			if (d + 1 < BK) load_frag(f ^ 1, cur, d + 1);
			else if (t + 1 < ntiles) load_frag(f ^ 1, (t + 1) % STAGES, 0);
#else
			const int f = 0;
			load_frag(0, cur, d);
#endif
			outer_product(acc, ra[f], rb[f]);
		}
#if !FRAG
		advance(t);
#endif
	}
#pragma unroll
	for (int i = 0; i < TM; ++i) {
		const int row = bm + wrow + (i / 4) * LM * 4 + lrow * 4 + (i % 4);
#pragma unroll
		for (int j = 0; j < TN / 4; ++j) {
			const int col = bn + wcol + j * LN * 4 + lcol * 4;
			*reinterpret_cast<float4 *>(C + (size_t)row * n + col) =
				make_float4(acc[i][4 * j], acc[i][4 * j + 1], acc[i][4 * j + 2], acc[i][4 * j + 3]);
		}
	}
}
