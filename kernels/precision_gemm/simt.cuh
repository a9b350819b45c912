// The CUDA-core (SIMT) GEMM of the fp64 and fp32 stages: one template, T the type the products and
// sums are done in. The inputs are the lesson's FP32 matrices, widened to T as they enter shared
// memory (FP32 to FP64 is exact); the result is rounded to FP32 once, when C is written.
//
// A block computes a BM x BN tile of C with (BM/TM) x (BN/TN) threads, each TM x TN outputs held in
// registers in groups of four spaced BN/TN*4 columns (and BM/TM*4 rows) apart, so that the threads
// of a warp read consecutive words of shared memory. The k loop walks BK-wide slices: the block copies the A slice (stored transposed, k-major,
// so a thread's TM values of one k are adjacent) and the B slice to shared memory, and every thread
// then does TM * TN multiply-adds per k from TM + TN shared-memory reads. The next slice is loaded
// into registers while the current one is multiplied. Loads outside the matrices read zero and
// writes outside C are skipped, so any m, n and k work.
#ifndef PRECISION_GEMM_SIMT_CUH
#define PRECISION_GEMM_SIMT_CUH

__device__ __forceinline__ float mad(float a, float b, float c) { return fmaf(a, b, c); }
__device__ __forceinline__ double mad(double a, double b, double c) { return fma(a, b, c); }

template <typename T, int tBM, int tBN, int tBK, int tTM, int tTN>
__device__ __forceinline__ void simt_gemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                          int m, int n, int k)
{
	constexpr int NT = (tBM / tTM) * (tBN / tTN);
	constexpr int A_PER = tBM * tBK / NT, B_PER = tBK * tBN / NT;   // elements each thread copies
	static_assert(tBM * tBK % NT == 0 && tBK * tBN % NT == 0, "the tiles must split evenly over the threads");
	__shared__ T As[2][tBK][tBM];
	__shared__ T Bs[2][tBK][tBN];
	const int tid = threadIdx.x, tx = tid % (tBN / tTN), ty = tid / (tBN / tTN);
	const int row0 = blockIdx.y * tBM, col0 = blockIdx.x * tBN;
	// This thread's rows and columns of the tile: groups of 4, one group per tBM/tTM*4 rows.
	auto row_of = [&](int i) { return (i / 4) * (tBM / tTM) * 4 + ty * 4 + i % 4; };
	auto col_of = [&](int j) { return (j / 4) * (tBN / tTN) * 4 + tx * 4 + j % 4; };
	static_assert(tTM % 4 == 0 && tTN % 4 == 0, "tTM and tTN are multiples of 4");
	T acc[tTM][tTN];
#pragma unroll
	for (int i = 0; i < tTM; i++)
#pragma unroll
		for (int j = 0; j < tTN; j++) acc[i][j] = 0;

	float ra[A_PER], rb[B_PER];
	auto load = [&](int k0) {
#pragma unroll
		for (int e = 0; e < A_PER; e++) {   // A slice: tBM rows x tBK, consecutive threads along k
			const int i = tid + e * NT, r = i / tBK, c = i % tBK;
			ra[e] = row0 + r < m && k0 + c < k ? A[(size_t)(row0 + r) * k + k0 + c] : 0.f;
		}
#pragma unroll
		for (int e = 0; e < B_PER; e++) {   // B slice: tBK rows x tBN, consecutive threads along n
			const int i = tid + e * NT, r = i / tBN, c = i % tBN;
			rb[e] = k0 + r < k && col0 + c < n ? B[(size_t)(k0 + r) * n + col0 + c] : 0.f;
		}
	};
	auto store = [&](int buf) {
#pragma unroll
		for (int e = 0; e < A_PER; e++) { const int i = tid + e * NT; As[buf][i % tBK][i / tBK] = (T)ra[e]; }
#pragma unroll
		for (int e = 0; e < B_PER; e++) { const int i = tid + e * NT; Bs[buf][i / tBN][i % tBN] = (T)rb[e]; }
	};

	load(0);
	store(0);
	__syncthreads();
	int buf = 0;
	for (int k0 = 0; k0 < k; k0 += tBK) {
		const bool more = k0 + tBK < k;
		if (more) load(k0 + tBK);             // in flight while this slice is multiplied
#pragma unroll
		for (int kk = 0; kk < tBK; kk++) {
			T a[tTM], b[tTN];
#pragma unroll
			for (int i = 0; i < tTM; i++) a[i] = As[buf][kk][row_of(i)];
#pragma unroll
			for (int j = 0; j < tTN; j++) b[j] = Bs[buf][kk][col_of(j)];
#pragma unroll
			for (int i = 0; i < tTM; i++)
#pragma unroll
				for (int j = 0; j < tTN; j++) acc[i][j] = mad(a[i], b[j], acc[i][j]);
		}
		if (more) {
			store(buf ^ 1);   // the other buffer: nobody reads it during this slice
			__syncthreads();
			buf ^= 1;
		}
	}
#pragma unroll
	for (int i = 0; i < tTM; i++) {
		const int r = row0 + row_of(i);
		if (r >= m) continue;
#pragma unroll
		for (int j = 0; j < tTN; j++) {
			const int c = col0 + col_of(j);
			if (c < n) C[(size_t)r * n + c] = (float)acc[i][j];
		}
	}
}
#endif
