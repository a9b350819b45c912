// Stage 9: warptiling on top of the cp.async double buffer.
// The block tile BM x BN is split into warp tiles WM x WN; the 32 lanes of a warp form an LM x LN grid
// (LM = WM/TM, LN = WN/TN, LM*LN = 32), and each lane owns TM x TN outputs as (TM/4) x (TN/4) groups
// of 4 x 4, spaced LM*4 rows and LN*4 columns apart inside the warp tile. Per k-step a warp then reads
// only WM + WN values from shared memory (64 + 32 at the defaults, against 16 + 128 for the 2 x 16
// thread strip of stage 8), each read is LM or LN consecutive float4s (conflict-free), and the lanes
// that share an A or B value are in the same warp, so the value is fetched once and broadcast.
// The copy pipeline is STAGES deep (cp.async groups, wait_group STAGES-2): tiles t+1 .. t+STAGES-1
// of B are in flight while tile t is computed. A is stored transposed (k-major) so that a lane reads
// its 4 consecutive rows as one float4; ALOAD picks how it gets there (0: 4-byte cp.async, STAGES
// ahead; 1 and 2: float4 global loads into registers one tile ahead, stored after the math).
// Shared memory is dynamic: STAGES*BK*(BM+PAD+BN)*4 bytes.
// m, n, k must be multiples of BM, BN, BK (no bounds checks). FRAG 1 and CLUSTER 2: warptile_x.cuh.
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 8
#endif
#ifndef WM
#define WM 64
#endif
#ifndef WN
#define WN 32
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif
#ifndef PAD
#define PAD 4
#endif
#ifndef STAGES
#define STAGES 2
#endif
#ifndef ALOAD
#define ALOAD 1     // A's path: 0 4-byte cp.async; 1 float4 loads, 4 scalar stores; 2 4x4 blocks, float4 stores
#endif
#ifndef MINB
#define MINB 2      // __launch_bounds__ minimum blocks per SM: caps registers at 65536/(NT*MINB)
#endif
#ifndef FMAORDER
#define FMAORDER 1  // the order of a k-step's TM x TN FMAs: 1 column by column, snaking; 2 the same, columns j XOR 4; 0 row by row
#endif
#define NT ((BM / WM) * (BN / WN) * 32)
#define LM (WM / TM)      // lanes along M
#define LN (WN / TN)      // lanes along N
#define LDA_S (BM + PAD)
#define A_LOADS ((BM * BK / 4 + NT - 1) / NT)

// One k-step of a lane's outer product, acc += ra x rb (this kernel's and warptile_x.cuh's). The
// result does not depend on the order, the speed does: ptxas keeps the order, and an FFMA that
// repeats its predecessor's operand in the same slot reads it from the operand reuse cache instead of
// the register file. FMAORDER 1 goes column by column (rb[j] repeated TM times) and walks the rows
// down and up in turn, so that ra[i] is repeated across each turn too; 2 is the same with the
// columns taken in the order j XOR 4 (4-7, 0-3, 12-15, 8-11: faster on an H200, for no reason we
// can see but ptxas's register allocation); 0 is the plain row by row.
__device__ __forceinline__ void outer_product(float (&acc)[TM][TN], const float (&ra)[TM], const float (&rb)[TN])
{
#if FMAORDER
#pragma unroll
	for (int c = 0; c < TN; ++c)
#pragma unroll
		for (int s = 0; s < TM; ++s) {
			const int j = FMAORDER == 2 ? c ^ 4 : c;
			const int i = (c & 1) ? TM - 1 - s : s;
			acc[i][j] += ra[i] * rb[j];
		}
#else
#pragma unroll
	for (int i = 0; i < TM; ++i)
#pragma unroll
		for (int j = 0; j < TN; ++j) acc[i][j] += ra[i] * rb[j];
#endif
}

// ALOAD 1's path for A (this kernel's and warptile_x.cuh's): A_LOADS float4s of 4 k-values a thread,
// loaded one tile ahead into pa, then stored transposed into buffer buf of As (k-major, LDA_S apart).
__device__ __forceinline__ void a_gload(float4 (&pa)[A_LOADS], const float *Ab, int k, int k0, int tid)
{
#pragma unroll
	for (int s = 0; s < A_LOADS; ++s) {
		const int i = tid + s * NT;
		if (i < BM * BK / 4) pa[s] = *reinterpret_cast<const float4 *>(Ab + (size_t)(i % BM) * k + k0 + (i / BM) * 4);
	}
}
__device__ __forceinline__ void a_sstore(const float4 (&pa)[A_LOADS], float *As, int buf, int tid)
{
#pragma unroll
	for (int s = 0; s < A_LOADS; ++s) {
		const int i = tid + s * NT;
		if (i >= BM * BK / 4) break;
		float *d = &As[buf * BK * LDA_S + (i / BM) * 4 * LDA_S + i % BM];
		d[0] = pa[s].x; d[LDA_S] = pa[s].y; d[2 * LDA_S] = pa[s].z; d[3 * LDA_S] = pa[s].w;
	}
}

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void cp_async4(void *dst, const void *src)
{
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(smem_addr(dst)), "l"(src));
}
__device__ __forceinline__ void cp_async16(void *dst, const void *src)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(dst)), "l"(src));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void cp_async_wait_stages() { asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2) : "memory"); }
#if !FRAG && !(CLUSTER > 1)   // the defaults; the other settings use the kernel of warptile_x.cuh
extern "C" __global__ void __launch_bounds__(NT, MINB)
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
	float ra[TM], rb[TN];
#pragma unroll
	for (int i = 0; i < TM; ++i)
#pragma unroll
		for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

#if ALOAD == 1
	// A one tile ahead in registers, a float4 of 4 k-values per load; lanes take consecutive rows at
	// the same k, so the 4 scalar transposed stores each hit 32 different banks.
	float4 pa[A_LOADS];
	auto gload_a = [&](int k0) { a_gload(pa, Ab, k, k0, tid); };
	auto sstore_a = [&](int buf) { a_sstore(pa, As, buf, tid); };
#elif ALOAD == 2
	// A one tile ahead in registers as 4 x 4 blocks: a thread loads rows r..r+3 at k-values c..c+3
	// (four float4), and stores the block transposed as four float4 (As[c+e][r..r+3]): 4 shared
	// stores instead of 16. Lanes take consecutive row blocks, so a warp's store is 512 contiguous bytes.
#define A_BLOCKS ((BM / 4) * (BK / 4))
#define A_LOADS ((A_BLOCKS + NT - 1) / NT)
	float4 pa[A_LOADS][4];
	auto gload_a = [&](int k0) {
#pragma unroll
		for (int s = 0; s < A_LOADS; ++s) {
			const int b = tid + s * NT;
			if (b >= A_BLOCKS) break;
			const float *src = Ab + (size_t)(b % (BM / 4)) * 4 * k + k0 + (b / (BM / 4)) * 4;
#pragma unroll
			for (int r = 0; r < 4; ++r) pa[s][r] = *reinterpret_cast<const float4 *>(src + (size_t)r * k);
		}
	};
	auto sstore_a = [&](int buf) {
#pragma unroll
		for (int s = 0; s < A_LOADS; ++s) {
			const int b = tid + s * NT;
			if (b >= A_BLOCKS) break;
			float *d = &As[buf * BK * LDA_S + (b / (BM / 4)) * 4 * LDA_S + (b % (BM / 4)) * 4];
			*reinterpret_cast<float4 *>(d) = make_float4(pa[s][0].x, pa[s][1].x, pa[s][2].x, pa[s][3].x);
			*reinterpret_cast<float4 *>(d + LDA_S) = make_float4(pa[s][0].y, pa[s][1].y, pa[s][2].y, pa[s][3].y);
			*reinterpret_cast<float4 *>(d + 2 * LDA_S) = make_float4(pa[s][0].z, pa[s][1].z, pa[s][2].z, pa[s][3].z);
			*reinterpret_cast<float4 *>(d + 3 * LDA_S) = make_float4(pa[s][0].w, pa[s][1].w, pa[s][2].w, pa[s][3].w);
		}
	};
#endif
	auto load_tile = [&](int buf, int k0) {
#pragma unroll
		for (int s = 0; s < (BM * BK / 4 + NT - 1) / NT && !ALOAD; ++s) {
			const int i = tid + s * NT;
			if (i >= BM * BK / 4) break;
			const int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
			const float *src = Ab + (size_t)r * k + k0 + c;
#pragma unroll
			for (int e = 0; e < 4; ++e)
				cp_async4(&As[buf * BK * LDA_S + (c + e) * LDA_S + r], src + e);
		}
#pragma unroll
		for (int s = 0; s < (BK * BN / 4 + NT - 1) / NT; ++s) {
			const int i = tid + s * NT;
			if (i >= BK * BN / 4) break;
			const int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
			cp_async16(&Bs[buf * BK * BN + r * BN + c], Bb + (size_t)(k0 + r) * n + c);
		}
	};

	const int ntiles = k / BK;
#if ALOAD
	gload_a(0);
	sstore_a(0);
#endif
#pragma unroll
	for (int s = 0; s < STAGES - 1; ++s) {
		if (s < ntiles) load_tile(s, s * BK);
		cp_async_commit();                     // always commit, so that group counting stays simple
	}
	for (int t = 0; t < ntiles; ++t) {
		const int cur = t % STAGES;
		cp_async_wait_stages();                // this thread's copies of tile t have landed ...
		__syncthreads();                       // ... everyone's, and everyone is done with tile t-1
		const int nt = t + STAGES - 1;
		if (nt < ntiles) load_tile(nt % STAGES, nt * BK);   // refills the buffer of tile t-1
		cp_async_commit();
#if ALOAD
		if (t + 1 < ntiles) gload_a((t + 1) * BK);          // lands while tile t is computed
#endif
		const float *as = As + cur * BK * LDA_S + wrow + lrow * 4;
		const float *bs = Bs + cur * BK * BN + wcol + lcol * 4;
#pragma unroll
		for (int d = 0; d < BK; ++d) {
#pragma unroll
			for (int i = 0; i < TM / 4; ++i) {
				const float4 v = *reinterpret_cast<const float4 *>(&as[d * LDA_S + i * LM * 4]);
				ra[4 * i] = v.x; ra[4 * i + 1] = v.y; ra[4 * i + 2] = v.z; ra[4 * i + 3] = v.w;
			}
#pragma unroll
			for (int j = 0; j < TN / 4; ++j) {
				const float4 v = *reinterpret_cast<const float4 *>(&bs[d * BN + j * LN * 4]);
				rb[4 * j] = v.x; rb[4 * j + 1] = v.y; rb[4 * j + 2] = v.z; rb[4 * j + 3] = v.w;
			}
			outer_product(acc, ra, rb);
		}
#if ALOAD
		if (t + 1 < ntiles) sstore_a((t + 1) % STAGES);     // free since the barrier of this step
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
#else
#include "warptile_x.cuh"
#endif
