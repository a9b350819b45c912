// Stage 4: 1D register blocktiling. A block computes a BM x BN tile of C with BM*BN/TM threads; each
// thread computes TM consecutive rows of one column. For every k it reads one value of B from shared
// memory into a register and reuses it for TM multiply-adds, so shared-memory loads per FMA drop from
// 2 to about 1 + 1/TM. Loads are bounds-checked (zero outside the matrices): any m, n, k.
#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 64
#endif
#ifndef BK
#define BK 8
#endif
#ifndef TM
#define TM 8
#endif
#define NT (BM * BN / TM)

extern "C" __global__ void __launch_bounds__(NT)
sgemm_blocktile1d(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                  int m, int n, int k)
{
	__shared__ float As[BM * BK];   // row-major BM x BK
	__shared__ float Bs[BK * BN];   // row-major BK x BN
	const int tid = threadIdx.x;
	const int tcol = tid % BN;      // consecutive threads: consecutive columns
	const int trow = tid / BN;      // rows trow*TM .. trow*TM+TM-1
	const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
	float acc[TM];
#pragma unroll
	for (int i = 0; i < TM; ++i) acc[i] = 0.0f;

	for (int k0 = 0; k0 < k; k0 += BK) {
		for (int i = tid; i < BM * BK; i += NT) {
			const int r = i / BK, c = i % BK;
			As[i] = (bm + r < m && k0 + c < k) ? A[(size_t)(bm + r) * k + k0 + c] : 0.0f;
		}
		for (int i = tid; i < BK * BN; i += NT) {
			const int r = i / BN, c = i % BN;
			Bs[i] = (k0 + r < k && bn + c < n) ? B[(size_t)(k0 + r) * n + bn + c] : 0.0f;
		}
		__syncthreads();
#pragma unroll
		for (int d = 0; d < BK; ++d) {
			const float b = Bs[d * BN + tcol];
#pragma unroll
			for (int i = 0; i < TM; ++i)
				acc[i] += As[(trow * TM + i) * BK + d] * b;
		}
		__syncthreads();
	}
	const int col = bn + tcol;
#pragma unroll
	for (int i = 0; i < TM; ++i) {
		const int row = bm + trow * TM + i;
		if (row < m && col < n)
			C[(size_t)row * n + col] = acc[i];
	}
}
