// tf32x3: FP32 accuracy from the TF32 tensor cores by splitting each operand in
// two (3xTF32, as in CUTLASS's "fast accurate" SGEMM): x = big + small, big = x rounded to TF32 (11
// significant bits), small = x - big (exact in FP32), of which the tensor core uses the top 11 bits
// (SPLIT_SMALL 1 rounds it instead), so that big + small keeps about 22 of x's 24 bits. a.b = big_a.big_b + big_a.small_b + small_a.big_b + small_a.small_b, and the
// last term, about 2^-22 of the product, is dropped: three TF32 products instead of one FP32 FMA.
// The tensor cores run them at several times the FP32 pipe's rate, so the result costs less than
// cublasSgemm's FFMAs and is about as accurate (precision_gemm measures it against FP64). An infinite
// input comes out NaN (inf - inf in the split).
//  - mma.sync m16n8k8 .tf32 (sm_80+), FP32 accumulators in registers; warp tile WM x WN = MI x NI
//    tiles of 16 x 8; block tile BM x BN; k-steps of BK; the split is done in registers, after each
//    fragment is loaded from shared memory, on A and B as they are: no converted copy anywhere.
//  - A (row-major) reaches shared memory with 16-byte cp.async into rows of BK + 4 floats: one
//    ldmatrix.x4 loads a whole A fragment (an 8 x 4 block of floats is an 8 x 8 block of 16-bit halves,
//    and the lane that gets word t of row g is the one mma wants), conflict-free with the 4-float pad.
//  - B (row-major, k x n) goes to rows of BN + 8 floats. The 8 columns of each n8 tile are taken 4
//    apart (tile j of a group of 4 uses columns j, j+4, ..., j+28 of a 32-column strip), so a lane's
//    B values for 4 tiles are 4 consecutive floats: one LDS.128 instead of four LDS.32, and its
//    outputs are 8 consecutive columns of C, stored as two float4.
//  - The tensor core rounds each mma's sum toward zero, and three mma per k-step into a sum that
//    grows to |C| bias it: over k = 4096 the error reached 1e-3 (76 of 4096^2 elements past the
//    sgemm check). With ACC2 each k-tile's products go to sums of their own, started at 0 and small,
//    which are added to C's sums with FP32 adds that round to nearest: twice the accumulators, so the
//    warp tile is halved (64 x 32).
//  - STAGES-deep cp.async pipeline; blocks numbered along M in groups of GROUP_M (L2 reuse).
//  - Any m, n, k: tiles past the edge are zero-filled by cp.async (src-size 0), stores are checked.
//    Rows not 16-byte aligned (k or n not a multiple of 4) take 4-byte copies instead.
// Used by sgemm/tf32x3.cu (the sgemm lesson's last stage) and precision_gemm/tf32x3.cu.
// Dynamic shared memory: STAGES * (BM * (BK + 4) + BK * (BN + 8)) * 4 bytes.
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
#define STAGES 3
#endif
#ifndef GROUP_M
#define GROUP_M 8
#endif
#ifndef MINB
#define MINB 1
#endif
#ifndef ACC2
#define ACC2 1          // 1: each k-tile's products summed apart, then added to C's sums in FP32 (see below)
#endif
#ifndef SPLIT_SMALL
#define SPLIT_SMALL 0   // 1: round small to TF32 too; 0: hand it over as is (the tensor core ignores its low 13 bits)
#endif
#define NT ((BM / WM) * (BN / WN) * 32)
#define MI (WM / 16)
#define NI (WN / 8)
#define LDA (BK + 4)
#define LDB (BN + 8)
#define A_STAGE (BM * LDA)
#define B_STAGE (BK * LDB)

__device__ __forceinline__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
// src_bytes < size: the rest of the destination is zero-filled (src_bytes 0: nothing is read).
__device__ __forceinline__ void cp_async16(unsigned dst, const void *src, unsigned src_bytes)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async4(unsigned dst, const void *src, unsigned src_bytes)
{
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void cp_async_wait_stages() { asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2) : "memory"); }
__device__ __forceinline__ void ldmatrix_x4(unsigned addr, float &r0, float &r1, float &r2, float &r3)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=f"(r0), "=f"(r1), "=f"(r2), "=f"(r3) : "r"(addr));
}
// x rounded to TF32, to nearest with ties away from zero, as cvt.rna.tf32.f32 does for finite x: add
// half of the 13 dropped bits' unit to the magnitude and clear them (2 integer operations; the cvt
// instruction compiles to about 4 on sm_90, with NaN checks this split does not need).
__device__ __forceinline__ unsigned to_tf32(float x) { return (__float_as_uint(x) + 0x1000u) & 0xffffe000u; }
__device__ __forceinline__ void split(float x, unsigned &big, unsigned &small)
{
	big = to_tf32(x);
	const float rest = x - __uint_as_float(big);   // exact: x and big share their top bits
	small = SPLIT_SMALL ? to_tf32(rest) : __float_as_uint(rest);
}
__device__ __forceinline__ void mma_tf32(float *d, const unsigned *a, unsigned b0, unsigned b1)
{
	asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
	    "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
	    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// The main loop; VEC: rows are 16-byte aligned, so tiles move in 16-byte copies.
template <bool VEC>
__device__ __forceinline__ void mainloop(const float *__restrict__ A, const float *__restrict__ B, int m, int n, int k,
                                         int bm, int bn, float *smem, float (&acc)[MI][NI][4])
{
	const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
	const int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;
	const unsigned as0 = smem_addr(smem), bs0 = smem_addr(smem + STAGES * A_STAGE);
	const float *Bs = smem + STAGES * A_STAGE;

	// Each thread copies the same places of every tile: A rows ar + s * A_RSTEP at column ac, B rows
	// br + s * B_RSTEP at column bc. Tiles wholly inside the matrices take the unchecked path.
	constexpr int A_RSTEP = NT / (BK / 4), B_RSTEP = NT / (BN / 4);
	const int ar = tid / (BK / 4), ac = (tid % (BK / 4)) * 4;
	const int br = tid / (BN / 4), bc = (tid % (BN / 4)) * 4;
	const float *pa = A + (size_t)(bm + ar) * k + ac, *pb = B + (size_t)br * n + bn + bc;
	const unsigned sa = as0 + 4 * (ar * LDA + ac), sb = bs0 + 4 * (br * LDB + bc);
	const bool inner_mn = bm + BM <= m && bn + BN <= n;
	auto load_tile = [&](int stage, int k0) {
		if (VEC && inner_mn && k0 + BK <= k) {
#pragma unroll
			for (int s = 0; s < BM / A_RSTEP; ++s)
				cp_async16(sa + 4 * (stage * A_STAGE + s * A_RSTEP * LDA), pa + (size_t)s * A_RSTEP * k + k0, 16);
#pragma unroll
			for (int s = 0; s < BK / B_RSTEP; ++s)
				cp_async16(sb + 4 * (stage * B_STAGE + s * B_RSTEP * LDB), pb + (size_t)(k0 + s * B_RSTEP) * n, 16);
		} else if (VEC) {   // k % 4 == 0 and n % 4 == 0: a 4-float piece is all in or all out
#pragma unroll
			for (int s = 0; s < BM / A_RSTEP; ++s) {
				const bool in = bm + ar + s * A_RSTEP < m && k0 + ac < k;
				cp_async16(sa + 4 * (stage * A_STAGE + s * A_RSTEP * LDA), in ? pa + (size_t)s * A_RSTEP * k + k0 : A, in ? 16 : 0);
			}
#pragma unroll
			for (int s = 0; s < BK / B_RSTEP; ++s) {
				const bool in = k0 + br + s * B_RSTEP < k && bn + bc < n;
				cp_async16(sb + 4 * (stage * B_STAGE + s * B_RSTEP * LDB), in ? pb + (size_t)(k0 + s * B_RSTEP) * n : B, in ? 16 : 0);
			}
		} else {
			for (int i = tid; i < BM * BK; i += NT) {
				const int r = i / BK, c = i % BK;
				const bool in = bm + r < m && k0 + c < k;
				cp_async4(as0 + 4 * (stage * A_STAGE + r * LDA + c), in ? A + (size_t)(bm + r) * k + k0 + c : A, in ? 4 : 0);
			}
			for (int i = tid; i < BK * BN; i += NT) {
				const int r = i / BN, c = i % BN;
				const bool in = k0 + r < k && bn + c < n;
				cp_async4(bs0 + 4 * (stage * B_STAGE + r * LDB + c), in ? B + (size_t)(k0 + r) * n + bn + c : B, in ? 4 : 0);
			}
		}
	};

	const int ntiles = (k + BK - 1) / BK;
#pragma unroll
	for (int s = 0; s < STAGES - 1; ++s) {
		if (s < ntiles) load_tile(s, s * BK);
		cp_async_commit();
	}
	// ldmatrix: lanes 0-15 give rows 0-15 at k-column 0 of the fragment, lanes 16-31 the same rows at 4
	const int g = lane / 4, t = lane % 4;
	const int arow = wr + lane % 16, acol = (lane / 16) * 4;
	for (int kt = 0; kt < ntiles; ++kt) {
		const int cur = kt % STAGES;
		cp_async_wait_stages();
		__syncthreads();
		const int nt = kt + STAGES - 1;
		if (nt < ntiles) load_tile(nt % STAGES, nt * BK);
		cp_async_commit();
#if ACC2
		float part[MI][NI][4];
#pragma unroll
		for (int i = 0; i < MI; ++i)
#pragma unroll
			for (int j = 0; j < NI; ++j)
#pragma unroll
				for (int q = 0; q < 4; ++q) part[i][j][q] = 0.0f;
#else
		float (&part)[MI][NI][4] = acc;
#endif
		const unsigned a_base = as0 + 4 * (cur * A_STAGE + arow * LDA + acol);
		const float *b_base = Bs + cur * B_STAGE + t * LDB + wc + g * 4;
#pragma unroll
		for (int kk = 0; kk < BK; kk += 8) {
			unsigned bbig[NI][2], bsmall[NI][2];
#pragma unroll
			for (int h = 0; h < NI / 4; ++h)
#pragma unroll
				for (int half = 0; half < 2; ++half) {   // b0: k-row t, b1: k-row t + 4
					const float4 v = *reinterpret_cast<const float4 *>(b_base + (kk + 4 * half) * LDB + h * 32);
					split(v.x, bbig[4 * h][half], bsmall[4 * h][half]);
					split(v.y, bbig[4 * h + 1][half], bsmall[4 * h + 1][half]);
					split(v.z, bbig[4 * h + 2][half], bsmall[4 * h + 2][half]);
					split(v.w, bbig[4 * h + 3][half], bsmall[4 * h + 3][half]);
				}
			// One 16-row tile of A at a time (fewer live registers); for it the small products first,
			// while the accumulators are small. Each pass is NI independent mma.
#pragma unroll
			for (int i = 0; i < MI; ++i) {
				float f[4];
				unsigned abig[4], asmall[4];
				ldmatrix_x4(a_base + 4 * (i * 16 * LDA + kk), f[0], f[1], f[2], f[3]);
#pragma unroll
				for (int q = 0; q < 4; ++q) split(f[q], abig[q], asmall[q]);
#pragma unroll
				for (int j = 0; j < NI; ++j) mma_tf32(part[i][j], asmall, bbig[j][0], bbig[j][1]);
#pragma unroll
				for (int j = 0; j < NI; ++j) mma_tf32(part[i][j], abig, bsmall[j][0], bsmall[j][1]);
#pragma unroll
				for (int j = 0; j < NI; ++j) mma_tf32(part[i][j], abig, bbig[j][0], bbig[j][1]);
			}
		}
#if ACC2
#pragma unroll
		for (int i = 0; i < MI; ++i)
#pragma unroll
			for (int j = 0; j < NI; ++j)
#pragma unroll
				for (int q = 0; q < 4; ++q) acc[i][j][q] += part[i][j][q];
#endif
	}
	asm volatile("cp.async.wait_all;\n" ::: "memory");
}

// The whole kernel, for an entry __launch_bounds__(NT, MINB) with smem the dynamic shared memory.
__device__ __forceinline__ void tf32x3_gemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                            int m, int n, int k, float *smem)
{
	const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;

	// grouped block order: GROUP_M block rows are swept column by column
	const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
	const int pid = blockIdx.x;
	const int group = pid / (GROUP_M * tiles_n);
	const int first_m = group * GROUP_M;
	const int gsize = min(tiles_m - first_m, GROUP_M);
	const int tm = first_m + (pid % (GROUP_M * tiles_n)) % gsize;
	const int tn = (pid % (GROUP_M * tiles_n)) / gsize;
	const int bm = tm * BM, bn = tn * BN;

	float acc[MI][NI][4];
#pragma unroll
	for (int i = 0; i < MI; ++i)
#pragma unroll
		for (int j = 0; j < NI; ++j)
#pragma unroll
			for (int q = 0; q < 4; ++q) acc[i][j][q] = 0.0f;

	const bool vec = !((k | n) & 3) && !((reinterpret_cast<unsigned long long>(A) | reinterpret_cast<unsigned long long>(B)) & 15);
	if (vec)
		mainloop<true>(A, B, m, n, k, bm, bn, smem, acc);
	else
		mainloop<false>(A, B, m, n, k, bm, bn, smem, acc);

	// Lane (g, t) holds, for each 16-row tile i and 32-column strip h, rows g and g + 8 at the 8
	// consecutive columns h*32 + 8t .. +7: c0 of tile 4h+q is column 8t + q, c1 is 8t + 4 + q.
	const int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;
	const int g = lane / 4, t = lane % 4;
	const bool vstore = !(n & 3) && !(reinterpret_cast<unsigned long long>(C) & 15);
#pragma unroll
	for (int i = 0; i < MI; ++i)
#pragma unroll
		for (int h = 0; h < NI / 4; ++h)
#pragma unroll
			for (int rh = 0; rh < 2; ++rh) {
				const int row = bm + wr + i * 16 + g + 8 * rh;
				const int col = bn + wc + h * 32 + 8 * t;
				if (row >= m) continue;
				float v[8];
#pragma unroll
				for (int q = 0; q < 4; ++q) {
					v[q] = acc[i][4 * h + q][2 * rh];
					v[4 + q] = acc[i][4 * h + q][2 * rh + 1];
				}
				float *dst = C + (size_t)row * n + col;
				if (vstore && col + 8 <= n) {
					*reinterpret_cast<float4 *>(dst) = make_float4(v[0], v[1], v[2], v[3]);
					*reinterpret_cast<float4 *>(dst + 4) = make_float4(v[4], v[5], v[6], v[7]);
				} else {
#pragma unroll
					for (int q = 0; q < 8; ++q)
						if (col + q < n) dst[q] = v[q];
				}
			}
}
