// Exercise: 1D register blocktiling, TM outputs per thread.
//
// A block computes a BM x BN tile of C with BM*BN/TM threads; thread tid owns column tcol of the
// tile and the TM consecutive rows trow*TM .. trow*TM + TM-1. The copies of the BM x BK slice of A
// and the BK x BN slice of B into shared memory (row-major, zero outside the matrices) and the final
// store are written. What is missing is the arithmetic. The point of this rung: for each d of the
// slice, read the one B value your column needs from shared memory ONCE, keep it in a register, and
// use it for all TM rows. Shared loads per multiply-add drop from 2 to about 1 + 1/TM.
//
// What to do:
//   1. For each d in 0 .. BK-1: load b = Bs[d][tcol] into a register.
//   2. For each i in 0 .. TM-1: acc[i] += As[trow*TM + i][d] * b.
//   (As is BM x BK row-major, Bs is BK x BN row-major, both flat arrays.)
//
// Tunables (-D): BM, BN (block tile), BK (slice of k per step), TM (rows per thread).
// Passing: within the lesson's tolerance at every size, and at least 0.9x the stage kernel's speed.
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
	__shared__ float As[BM * BK];   // row-major BM x BK: element (r, c) at As[r * BK + c]
	__shared__ float Bs[BK * BN];   // row-major BK x BN: element (r, c) at Bs[r * BN + c]
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
		// TODO(1): loop over d = 0 .. BK-1, reading this thread's B value once per d into a register.
		// TODO(2): inside it, TM multiply-adds into acc[0 .. TM-1] with the TM values of A.
		// The placeholder below does one multiply-add (d = 0, first row): replace it.
		acc[0] += As[(trow * TM) * BK] * Bs[tcol];
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
