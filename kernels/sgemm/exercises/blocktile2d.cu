// Exercise: 2D register blocktiling, a TM x TN patch of C per thread.
//
// Each of the BM*BN/(TM*TN) threads owns TM rows x TN columns of the BM x BN block tile: rows
// trow*TM .. +TM-1 and columns tcol*TN .. +TN-1. The shared-memory copies (row-major, zero outside
// the matrices) and the final store are written. For each d of the BK slice, the idea is an outer
// product: copy the TM values of A and the TN values of B that the patch needs into the registers
// ra[] and rb[], then do all TM*TN multiply-adds from registers. At 8 x 8 that is 16 shared loads
// for 64 FMAs.
//
// What to do:
//   1. For each d in 0 .. BK-1: ra[i] = As[trow*TM + i][d] for i < TM; rb[j] = Bs[d][tcol*TN + j]
//      for j < TN. (As is BM x BK row-major, Bs is BK x BN row-major, both flat arrays.)
//   2. acc[i][j] += ra[i] * rb[j] for every i < TM, j < TN.
//   Fully unrolled loops (#pragma unroll) keep acc, ra and rb in registers.
//
// Tunables (-D): BM, BN (block tile), BK (slice of k), TM, TN (patch per thread), MINB (the
// minimum resident blocks per SM given to __launch_bounds__, which caps registers per thread).
// Passing: within the lesson's tolerance at every size, and at least 0.9x the stage kernel's speed.
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 8
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif
#ifndef MINB
#define MINB 1
#endif
#define NT (BM * BN / (TM * TN))

extern "C" __global__ void __launch_bounds__(NT, MINB)
sgemm_blocktile2d(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                  int m, int n, int k)
{
	__shared__ float As[BM * BK];   // row-major BM x BK: element (r, c) at As[r * BK + c]
	__shared__ float Bs[BK * BN];   // row-major BK x BN: element (r, c) at Bs[r * BN + c]
	const int tid = threadIdx.x;
	const int tcol = tid % (BN / TN);
	const int trow = tid / (BN / TN);
	const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
	float acc[TM][TN];
	// TODO(1) will need the register copies: float ra[TM], rb[TN];
#pragma unroll
	for (int i = 0; i < TM; ++i)
#pragma unroll
		for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

	for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
		for (int s = 0; s < (BM * BK + NT - 1) / NT; ++s) {
			const int i = tid + s * NT;
			if (i >= BM * BK) break;
			const int r = i / BK, c = i % BK;
			As[i] = (bm + r < m && k0 + c < k) ? A[(size_t)(bm + r) * k + k0 + c] : 0.0f;
		}
#pragma unroll
		for (int s = 0; s < (BK * BN + NT - 1) / NT; ++s) {
			const int i = tid + s * NT;
			if (i >= BK * BN) break;
			const int r = i / BN, c = i % BN;
			Bs[i] = (k0 + r < k && bn + c < n) ? B[(size_t)(k0 + r) * n + bn + c] : 0.0f;
		}
		__syncthreads();
		// TODO(1): for each d < BK, fill ra[] from the TM rows of As and rb[] from the TN columns of Bs.
		// TODO(2): then the outer product: TM * TN multiply-adds into acc.
		// The placeholder below does one multiply-add (d = 0, the patch's first row and column).
		acc[0][0] += As[(trow * TM) * BK] * Bs[tcol * TN];
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < TM; ++i) {
		const int row = bm + trow * TM + i;
#pragma unroll
		for (int j = 0; j < TN; ++j) {
			const int col = bn + tcol * TN + j;
			if (row < m && col < n)
				C[(size_t)row * n + col] = acc[i][j];
		}
	}
}
