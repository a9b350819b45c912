// Stage 2: WMMA fed from shared-memory tiles. The block (WARPS_M x WARPS_N warps) copies a BM x BK
// tile of A and a BK x BN tile of B into shared memory with 16-byte loads, then every warp loads its
// fragments from there. Each element of A is now read from global memory once per block instead of
// once per warp. Rows are padded by 8 BF16 (16 bytes) so that the 8 rows a fragment load touches at
// once fall into different banks. Single buffer: load, __syncthreads, compute, __syncthreads.
// m must be a multiple of BM, n of BN, k of BK.
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 32
#endif
#ifndef WARPS_M
#define WARPS_M 2
#endif
#ifndef WARPS_N
#define WARPS_N 4
#endif
#define NT (WARPS_M * WARPS_N * 32)
#define WM (BM / WARPS_M)
#define WN (BN / WARPS_N)
#define FM (WM / 16)
#define FN (WN / 16)
#define LDA (BK + 8)
#define LDB (BN + 8)

extern "C" __global__ void __launch_bounds__(NT)
tc_wmma_smem(const __nv_bfloat16 *__restrict__ A, const __nv_bfloat16 *__restrict__ B,
             float *__restrict__ C, int m, int n, int k)
{
	__shared__ __align__(32) __nv_bfloat16 As[BM * LDA];
	__shared__ __align__(32) __nv_bfloat16 Bs[BK * LDB];
	const int tid = threadIdx.x, warp = tid / 32;
	const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
	const int wr = (warp / WARPS_N) * WM, wc = (warp % WARPS_N) * WN;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FM][FN];
#pragma unroll
	for (int i = 0; i < FM; ++i)
#pragma unroll
		for (int j = 0; j < FN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

	for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
		for (int s = 0; s < (BM * BK / 8 + NT - 1) / NT; ++s) {      // 8 BF16 = 16 bytes per copy
			const int i = tid + s * NT;
			if (i >= BM * BK / 8) break;
			const int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
			*reinterpret_cast<uint4 *>(&As[r * LDA + c]) =
				*reinterpret_cast<const uint4 *>(A + (size_t)(bm + r) * k + k0 + c);
		}
#pragma unroll
		for (int s = 0; s < (BK * BN / 8 + NT - 1) / NT; ++s) {
			const int i = tid + s * NT;
			if (i >= BK * BN / 8) break;
			const int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
			*reinterpret_cast<uint4 *>(&Bs[r * LDB + c]) =
				*reinterpret_cast<const uint4 *>(B + (size_t)(k0 + r) * n + bn + c);
		}
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < BK; kk += 16) {
			wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a[FM];
			wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b[FN];
#pragma unroll
			for (int i = 0; i < FM; ++i) wmma::load_matrix_sync(a[i], &As[(wr + i * 16) * LDA + kk], LDA);
#pragma unroll
			for (int j = 0; j < FN; ++j) wmma::load_matrix_sync(b[j], &Bs[kk * LDB + wc + j * 16], LDB);
#pragma unroll
			for (int i = 0; i < FM; ++i)
#pragma unroll
				for (int j = 0; j < FN; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < FM; ++i)
#pragma unroll
		for (int j = 0; j < FN; ++j)
			wmma::store_matrix_sync(C + (size_t)(bm + wr + i * 16) * n + bn + wc + j * 16, acc[i][j], n, wmma::mem_row_major);
}
