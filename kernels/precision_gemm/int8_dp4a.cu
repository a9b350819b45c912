// The int8_dp4a stage: INT8 on the CUDA cores with __dp4a (sm_61 on): one instruction multiplies the
// four signed bytes of one 32-bit word by the four of another and adds the four products to an int32.
//
// The operands are the INT8 copies made by prepare_copies (copies.cuh): Ai8 (m x k) and Bi8 (B
// transposed, n x k), both k-major, so four consecutive values of k are one aligned word of each
// (k a multiple of 4). C[i][j] = sa8[i] * sb8[j] * sum_k Ai8[i][k] * Bi8[j][k], the sum exact in int32
// (|sum| <= 127 * 127 * k, below 2^31 for any k up to 133000).
//
// The tiling is the fp32 stage's (simt.cuh) with a word of four k values in place of one float: a
// block computes a BM x BN tile of C, each thread TM x TN int32 sums in registers, from slices of
// KW words of k (4 * KW values) of A and B staged k-major in shared memory, the next slice loaded
// into registers while this one is multiplied. Loads outside the matrices read zero and writes
// outside C are skipped, so any m and n work.
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 4
#endif
#define KW 8                                   // words of k per slice: 32 values
#define NTH ((BM / TM) * (BN / TN))
#define A_PER (BM * KW / NTH)                  // words of the A slice each thread copies
#define B_PER (BN * KW / NTH)

extern "C" __global__ void __launch_bounds__(NTH)
gemm_int8_dp4a(const signed char *__restrict__ Ai8, const signed char *__restrict__ Bi8, float *__restrict__ C,
               const float *__restrict__ sa8, const float *__restrict__ sb8, int m, int n, int k)
{
	static_assert(BM * KW % NTH == 0 && BN * KW % NTH == 0, "the slices must split evenly over the threads");
	static_assert(TM % 4 == 0 && TN % 4 == 0, "TM and TN are multiples of 4");
	__shared__ int As[2][KW][BM];
	__shared__ int Bs[2][KW][BN];
	const int tid = threadIdx.x, tx = tid % (BN / TN), ty = tid / (BN / TN);
	const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
	const int kw = k / 4;                      // words in a row of Ai8 and Bi8
	const int *A = (const int *)Ai8, *B = (const int *)Bi8;
	// This thread's rows and columns of the tile: groups of 4, the groups BM/TM*4 (BN/TN*4) apart, so
	// that the threads of a warp read consecutive words of shared memory.
	auto row_of = [&](int i) { return (i / 4) * (BM / TM) * 4 + ty * 4 + i % 4; };
	auto col_of = [&](int j) { return (j / 4) * (BN / TN) * 4 + tx * 4 + j % 4; };
	int acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++) acc[i][j] = 0;

	int ra[A_PER], rb[B_PER];
	auto load = [&](int w0) {                  // the slice of words w0 .. w0 + KW - 1, consecutive threads along k
#pragma unroll
		for (int e = 0; e < A_PER; e++) {
			const int i = tid + e * NTH, r = i / KW, c = i % KW;
			ra[e] = row0 + r < m && w0 + c < kw ? A[(size_t)(row0 + r) * kw + w0 + c] : 0;
		}
#pragma unroll
		for (int e = 0; e < B_PER; e++) {
			const int i = tid + e * NTH, r = i / KW, c = i % KW;
			rb[e] = col0 + r < n && w0 + c < kw ? B[(size_t)(col0 + r) * kw + w0 + c] : 0;
		}
	};
	auto store = [&](int buf) {
#pragma unroll
		for (int e = 0; e < A_PER; e++) { const int i = tid + e * NTH; As[buf][i % KW][i / KW] = ra[e]; }
#pragma unroll
		for (int e = 0; e < B_PER; e++) { const int i = tid + e * NTH; Bs[buf][i % KW][i / KW] = rb[e]; }
	};

	load(0);
	store(0);
	__syncthreads();
	int buf = 0;
	for (int w0 = 0; w0 < kw; w0 += KW) {
		const bool more = w0 + KW < kw;
		if (more) load(w0 + KW);               // in flight while this slice is multiplied
#pragma unroll
		for (int w = 0; w < KW; w++) {
			int a[TM], b[TN];
#pragma unroll
			for (int i = 0; i < TM; i++) a[i] = As[buf][w][row_of(i)];
#pragma unroll
			for (int j = 0; j < TN; j++) b[j] = Bs[buf][w][col_of(j)];
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++) acc[i][j] = __dp4a(a[i], b[j], acc[i][j]);   // signed bytes: int operands
		}
		if (more) {
			store(buf ^ 1);                    // the other buffer: nobody reads it during this slice
			__syncthreads();
			buf ^= 1;
		}
	}
#pragma unroll
	for (int i = 0; i < TM; i++) {
		const int r = row0 + row_of(i);
		if (r >= m) continue;
		const float s = sa8[r];
#pragma unroll
		for (int j = 0; j < TN; j++) {
			const int c = col0 + col_of(j);
			if (c < n) C[(size_t)r * n + c] = s * sb8[c] * (float)acc[i][j];
		}
	}
}
