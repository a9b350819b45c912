// Stage 3: mma.sync (m16n8k16, BF16 in, FP32 accumulate) fed by ldmatrix from shared memory, with a
// STAGES-deep cp.async pipeline and a grouped block order for L2 reuse.
//  - cp.async copies 16-byte pieces of the next STAGES-1 k-tiles from global to shared memory while
//    the current one is multiplied (no registers, no waiting on each load).
//  - ldmatrix loads a whole 16x16 A fragment (x4) or two 16x8 B fragments (x4.trans: B is row-major,
//    k x n, and the instruction transposes it into the column layout mma wants) in one instruction.
//  - Rows in shared memory are padded by 8 BF16 (16 bytes): the 8 row addresses of each 8x8 matrix
//    an ldmatrix reads land in 8 different 16-byte bank groups.
//  - Blocks are numbered along M inside groups of GROUP_M block rows, so the blocks running at the
//    same time share columns of B and rows of A in L2 instead of each streaming all of B.
// Warp tile WM x WN = (WM/16) x (WN/8) mma tiles; block BM x BN; k-step BK.
// m must be a multiple of BM, n of BN, k of BK. Dynamic shared memory: STAGES*(BM*(BK+8)+BK*(BN+8))*2.
#include <cuda_bf16.h>

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 32
#endif
#ifndef WM
#define WM 64
#endif
#ifndef WN
#define WN 32
#endif
#ifndef STAGES
#define STAGES 4
#endif
#ifndef GROUP_M
#define GROUP_M 8
#endif
#ifndef MINB
#define MINB 1
#endif
#define NT ((BM / WM) * (BN / WN) * 32)
#define MI (WM / 16)
#define NI (WN / 8)
#define LDA (BK + 8)
#define LDB (BN + 8)
#define A_STAGE (BM * LDA)
#define B_STAGE (BK * LDB)

__device__ __forceinline__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void cp_async16(unsigned dst, const void *src)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void cp_async_wait_stages() { asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2) : "memory"); }
__device__ __forceinline__ void ldmatrix_x4(unsigned addr, unsigned &r0, unsigned &r1, unsigned &r2, unsigned &r3)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned addr, unsigned &r0, unsigned &r1, unsigned &r2, unsigned &r3)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
__device__ __forceinline__ void mma_bf16(float *d, const unsigned *a, unsigned b0, unsigned b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
	             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

extern "C" __global__ void __launch_bounds__(NT, MINB)
tc_mma_pipeline(const __nv_bfloat16 *__restrict__ A, const __nv_bfloat16 *__restrict__ B,
                float *__restrict__ C, int m, int n, int k)
{
	extern __shared__ __align__(128) __nv_bfloat16 smem[];
	__nv_bfloat16 *As = smem;                        // STAGES x [BM][LDA]
	__nv_bfloat16 *Bs = smem + STAGES * A_STAGE;     // STAGES x [BK][LDB]
	const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;

	// grouped block order: GROUP_M block rows are swept column by column
	const int tiles_m = m / BM, tiles_n = n / BN;
	const int pid = blockIdx.x;
	const int group = pid / (GROUP_M * tiles_n);
	const int first_m = group * GROUP_M;
	const int gsize = min(tiles_m - first_m, GROUP_M);
	const int tm = first_m + (pid % (GROUP_M * tiles_n)) % gsize;
	const int tn = (pid % (GROUP_M * tiles_n)) / gsize;
	const int bm = tm * BM, bn = tn * BN;

	const int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;
	float acc[MI][NI][4];
#pragma unroll
	for (int i = 0; i < MI; ++i)
#pragma unroll
		for (int j = 0; j < NI; ++j)
#pragma unroll
			for (int q = 0; q < 4; ++q) acc[i][j][q] = 0.0f;

	const __nv_bfloat16 *Ag = A + (size_t)bm * k;
	const __nv_bfloat16 *Bg = B + bn;
	const unsigned as0 = smem_addr(As), bs0 = smem_addr(Bs);
	auto load_tile = [&](int stage, int k0) {
#pragma unroll
		for (int s = 0; s < (BM * BK / 8 + NT - 1) / NT; ++s) {
			const int i = tid + s * NT;
			if (i >= BM * BK / 8) break;
			const int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
			cp_async16(as0 + 2 * (stage * A_STAGE + r * LDA + c), Ag + (size_t)r * k + k0 + c);
		}
#pragma unroll
		for (int s = 0; s < (BK * BN / 8 + NT - 1) / NT; ++s) {
			const int i = tid + s * NT;
			if (i >= BK * BN / 8) break;
			const int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
			cp_async16(bs0 + 2 * (stage * B_STAGE + r * LDB + c), Bg + (size_t)(k0 + r) * n + c);
		}
	};

	const int ntiles = k / BK;
#pragma unroll
	for (int s = 0; s < STAGES - 1; ++s) {
		if (s < ntiles) load_tile(s, s * BK);
		cp_async_commit();
	}
	// per-lane ldmatrix row/column: lanes 0-15 rows 0-15 at column 0, lanes 16-31 rows 0-15 at column 8
	const int lrow = lane % 16, lcol = (lane / 16) * 8;
	for (int t = 0; t < ntiles; ++t) {
		const int cur = t % STAGES;
		cp_async_wait_stages();
		__syncthreads();
		const int nt = t + STAGES - 1;
		if (nt < ntiles) load_tile(nt % STAGES, nt * BK);
		cp_async_commit();
		const unsigned a_base = as0 + 2 * (cur * A_STAGE + (wr + lrow) * LDA + lcol);
		const unsigned b_base = bs0 + 2 * (cur * B_STAGE + lrow * LDB + wc + lcol);
#pragma unroll
		for (int kk = 0; kk < BK; kk += 16) {
			unsigned af[MI][4], bf[NI][2];
#pragma unroll
			for (int i = 0; i < MI; ++i)
				ldmatrix_x4(a_base + 2 * (i * 16 * LDA + kk), af[i][0], af[i][1], af[i][2], af[i][3]);
#pragma unroll
			for (int j = 0; j < NI; j += 2)
				ldmatrix_x4_trans(b_base + 2 * (kk * LDB + j * 8), bf[j][0], bf[j][1], bf[j + 1][0], bf[j + 1][1]);
#pragma unroll
			for (int i = 0; i < MI; ++i)
#pragma unroll
				for (int j = 0; j < NI; ++j) mma_bf16(acc[i][j], af[i], bf[j][0], bf[j][1]);
		}
	}
	// accumulator layout: d0,d1 at (row lane/4, cols 2*(lane%4) + 0,1); d2,d3 eight rows lower
#pragma unroll
	for (int i = 0; i < MI; ++i)
#pragma unroll
		for (int j = 0; j < NI; ++j) {
			const int row = bm + wr + i * 16 + lane / 4;
			const int col = bn + wc + j * 8 + (lane % 4) * 2;
			*reinterpret_cast<float2 *>(C + (size_t)row * n + col) = make_float2(acc[i][j][0], acc[i][j][1]);
			*reinterpret_cast<float2 *>(C + (size_t)(row + 8) * n + col) = make_float2(acc[i][j][2], acc[i][j][3]);
		}
}
