// The int8_mma stage: INT8 on the tensor cores (IMMA) through mma.sync.m16n8k32 .s8.s8.s32 (sm_80 on):
// one warp instruction multiplies a 16 x 32 tile of signed bytes by a 32 x 8 one and adds the 16 x 8
// int32 products into its sums, 4096 multiply-adds where __dp4a does 4 per thread (128 per warp).
//
// The operands are the INT8 copies of copies.cuh: Ai8 (m x k) and Bi8 (B transposed, n x k), both
// k-major, which is the .row.col layout the instruction wants: no transposes anywhere. C[i][j] =
// sa8[i] * sb8[j] * (int32 sum), as in the dp4a stage.
//  - A block computes BM x BN of C with (BM/WM) x (BN/WN) warps, each a WM x WN warp tile of
//    (WM/16) x (WN/8) mma tiles, int32 sums in registers.
//  - k is walked in slices of BK bytes (values); cp.async copies 16-byte pieces of the next STAGES-1
//    slices of A and B into shared memory while the current one is multiplied. A piece past m, n or
//    k is zero-filled (cp.async's source size 0), so any m and n work, and any k that is a multiple of
//    16 (the pieces are whole or absent).
//  - ldmatrix loads the fragments: a 16 x 32-byte A fragment is four 8 x 16-byte matrices (x4), and
//    the s8 fragment layouts are the f16 ones with a 32-bit word holding 4 values of k instead of 2;
//    one x4 also gives the B fragments of two 8-column mma tiles.
//  - Rows in shared memory are padded by 16 bytes, so the 8 row addresses of each 8 x 16-byte matrix
//    fall in 8 different 16-byte bank groups (no conflicts).
//  - Blocks are numbered along m inside groups of GROUP_M block rows, so blocks running together
//    share rows of A and columns of B in L2.
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 64
#endif
#ifndef WM
#define WM 64
#endif
#ifndef WN
#define WN 32
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef GROUP_M
#define GROUP_M 8
#endif
#define NTH ((BM / WM) * (BN / WN) * 32)
#define MI (WM / 16)
#define NI (WN / 8)
#define LD (BK + 16)                           // bytes per row in shared memory, padded
#define A_STAGE (BM * LD)
#define B_STAGE (BN * LD)

__device__ __forceinline__ void cp_async16_zfill(unsigned dst, const void *src, bool in)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(in ? 16 : 0));
}
__device__ __forceinline__ void ldsm_x4(unsigned addr, unsigned &r0, unsigned &r1, unsigned &r2, unsigned &r3)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
__device__ __forceinline__ void mma_s8(int (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
	asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
	             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
	             : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

extern "C" __global__ void __launch_bounds__(NTH)
gemm_int8_mma(const signed char *__restrict__ Ai8, const signed char *__restrict__ Bi8, float *__restrict__ C,
              const float *__restrict__ sa8, const float *__restrict__ sb8, int m, int n, int k)
{
	static_assert(BK % 32 == 0 && WM % 16 == 0 && WN % 16 == 0, "BK a multiple of 32, WM and WN of 16");
	extern __shared__ __align__(128) unsigned char smem[];
	const unsigned as0 = (unsigned)__cvta_generic_to_shared(smem), bs0 = as0 + STAGES * A_STAGE;
	const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;

	// grouped block order: GROUP_M block rows are swept column by column
	const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
	const int per_group = GROUP_M * tiles_n, first_m = (blockIdx.x / per_group) * GROUP_M;
	const int rows = min(tiles_m - first_m, GROUP_M), r_in = blockIdx.x % per_group;
	const int bm = (first_m + r_in % rows) * BM, bn = (r_in / rows) * BN;
	const int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;

	int acc[MI][NI][4];
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int j = 0; j < NI; j++)
#pragma unroll
			for (int q = 0; q < 4; q++) acc[i][j][q] = 0;

	// One slice: BM (BN) rows of BK bytes, in 16-byte pieces spread over the threads.
	auto load_slice = [&](int stage, int k0) {
#pragma unroll
		for (int i = tid; i < BM * (BK / 16); i += NTH) {
			const int r = i / (BK / 16), c = (i % (BK / 16)) * 16;
			const bool in = bm + r < m && k0 + c < k;
			cp_async16_zfill(as0 + stage * A_STAGE + r * LD + c, in ? Ai8 + (size_t)(bm + r) * k + k0 + c : Ai8, in);
		}
#pragma unroll
		for (int i = tid; i < BN * (BK / 16); i += NTH) {
			const int r = i / (BK / 16), c = (i % (BK / 16)) * 16;
			const bool in = bn + r < n && k0 + c < k;
			cp_async16_zfill(bs0 + stage * B_STAGE + r * LD + c, in ? Bi8 + (size_t)(bn + r) * k + k0 + c : Bi8, in);
		}
	};

	const int slices = (k + BK - 1) / BK;
#pragma unroll
	for (int s = 0; s < STAGES - 1; s++) {
		if (s < slices) load_slice(s, s * BK);
		asm volatile("cp.async.commit_group;\n" ::);
	}
	// Lane l gives ldmatrix the address of row l % 8 of matrix l / 8. A: matrices (rows 0-7, k 0-15),
	// (rows 8-15, k 0-15), (rows 0-7, k 16-31), (rows 8-15, k 16-31) = a0..a3 of m16n8k32. B: (cols
	// 0-7, k 0-15), (cols 0-7, k 16-31), (cols 8-15, k 0-15), (cols 8-15, k 16-31) = b0, b1 of two tiles.
	const int a_row = lane % 8 + ((lane / 8) % 2) * 8, a_k = (lane / 16) * 16;
	const int b_row = lane % 8 + (lane / 16) * 8, b_k = ((lane / 8) % 2) * 16;
	for (int t = 0; t < slices; t++) {
		asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2) : "memory");
		__syncthreads();   // slice t is in; and every warp is done with slice t - 1, whose slot is refilled next
		const int next = t + STAGES - 1;
		if (next < slices) load_slice(next % STAGES, next * BK);
		asm volatile("cp.async.commit_group;\n" ::);
		const unsigned as = as0 + (t % STAGES) * A_STAGE, bs = bs0 + (t % STAGES) * B_STAGE;
#pragma unroll
		for (int kk = 0; kk < BK; kk += 32) {
			unsigned a[MI][4], b[NI][2];
#pragma unroll
			for (int i = 0; i < MI; i++)
				ldsm_x4(as + (wr + i * 16 + a_row) * LD + kk + a_k, a[i][0], a[i][1], a[i][2], a[i][3]);
#pragma unroll
			for (int j = 0; j < NI; j += 2)
				ldsm_x4(bs + (wc + j * 8 + b_row) * LD + kk + b_k, b[j][0], b[j][1], b[j + 1][0], b[j + 1][1]);
#pragma unroll
			for (int i = 0; i < MI; i++)
#pragma unroll
				for (int j = 0; j < NI; j++) mma_s8(acc[i][j], a[i], b[j][0], b[j][1]);
		}
	}
	asm volatile("cp.async.wait_group 0;\n" ::: "memory");

	// d0, d1: row l/4, columns 2(l%4) and the next; d2, d3: the same 8 rows further down.
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int h = 0; h < 2; h++) {
			const int row = bm + wr + i * 16 + lane / 4 + 8 * h;
			if (row >= m) continue;
			const float s = sa8[row];
#pragma unroll
			for (int j = 0; j < NI; j++)
#pragma unroll
				for (int e = 0; e < 2; e++) {
					const int col = bn + wc + j * 8 + 2 * (lane % 4) + e;
					if (col < n) C[(size_t)row * n + col] = s * sb8[col] * (float)acc[i][j][2 * h + e];
				}
		}
}
