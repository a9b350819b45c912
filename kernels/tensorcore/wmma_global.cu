// Stage 1: Tensor Cores through WMMA, fragments loaded straight from global memory.
// C (m x n, FP32) = A (m x k, BF16, row-major) . B (k x n, BF16, row-major), FP32 accumulation.
// Each warp owns FM x FN accumulator fragments of 16 x 16 (a 16*FM x 16*FN tile of C); a block is
// WARPS_M x WARPS_N warps. For every 16-wide slice of k the warp loads FM fragments of A and FN of B
// with load_matrix_sync directly from global memory and issues FM*FN mma_sync.
// m must be a multiple of BM = WARPS_M*FM*16, n of BN = WARPS_N*FN*16, k of 16.
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;

#ifndef WARPS_M
#define WARPS_M 2
#endif
#ifndef WARPS_N
#define WARPS_N 2
#endif
#ifndef FM
#define FM 2
#endif
#ifndef FN
#define FN 2
#endif
#define BM (WARPS_M * FM * 16)
#define BN (WARPS_N * FN * 16)

extern "C" __global__ void __launch_bounds__(WARPS_M * WARPS_N * 32)
tc_wmma_global(const __nv_bfloat16 *__restrict__ A, const __nv_bfloat16 *__restrict__ B,
               float *__restrict__ C, int m, int n, int k)
{
	const int warp = threadIdx.x / 32;
	const int row0 = blockIdx.y * BM + (warp / WARPS_N) * FM * 16;
	const int col0 = blockIdx.x * BN + (warp % WARPS_N) * FN * 16;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FM][FN];
#pragma unroll
	for (int i = 0; i < FM; ++i)
#pragma unroll
		for (int j = 0; j < FN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

	for (int k0 = 0; k0 < k; k0 += 16) {
		wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a[FM];
		wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b[FN];
#pragma unroll
		for (int i = 0; i < FM; ++i)
			wmma::load_matrix_sync(a[i], A + (size_t)(row0 + i * 16) * k + k0, k);
#pragma unroll
		for (int j = 0; j < FN; ++j)
			wmma::load_matrix_sync(b[j], B + (size_t)k0 * n + col0 + j * 16, n);
#pragma unroll
		for (int i = 0; i < FM; ++i)
#pragma unroll
			for (int j = 0; j < FN; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
	}
#pragma unroll
	for (int i = 0; i < FM; ++i)
#pragma unroll
		for (int j = 0; j < FN; ++j)
			wmma::store_matrix_sync(C + (size_t)(row0 + i * 16) * n + col0 + j * 16, acc[i][j], n, wmma::mem_row_major);
}
