// Stage 5: 2D register blocktiling. Each of the BM*BN/(TM*TN) threads computes a TM x TN patch of the
// BM x BN tile. Per k it loads TM values of A and TN values of B from shared memory into registers and
// does TM*TN multiply-adds with them (an outer product): 64 FMAs for 16 shared loads at 8 x 8.
// Loads are bounds-checked (zero outside the matrices): any m, n, k.
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
#define MINB 1      // __launch_bounds__ minimum blocks per SM
#endif
#define NT (BM * BN / (TM * TN))

extern "C" __global__ void __launch_bounds__(NT, MINB)
sgemm_blocktile2d(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                  int m, int n, int k)
{
	__shared__ float As[BM * BK];   // row-major BM x BK
	__shared__ float Bs[BK * BN];   // row-major BK x BN
	const int tid = threadIdx.x;
	const int tcol = tid % (BN / TN);
	const int trow = tid / (BN / TN);
	const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
	float acc[TM][TN];
	float ra[TM], rb[TN];
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
#pragma unroll
		for (int d = 0; d < BK; ++d) {
#pragma unroll
			for (int i = 0; i < TM; ++i) ra[i] = As[(trow * TM + i) * BK + d];
#pragma unroll
			for (int j = 0; j < TN; ++j) rb[j] = Bs[d * BN + tcol * TN + j];
#pragma unroll
			for (int i = 0; i < TM; ++i)
#pragma unroll
				for (int j = 0; j < TN; ++j) acc[i][j] += ra[i] * rb[j];
		}
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
