// Stage 7: the vectorized kernel with its shared-memory bank conflicts removed.
// Two sources of conflicts in stage 6, and the fix for each:
//  - Storing A transposed: a warp writes As[c][r] for 16 rows r and two column groups c that are
//    BM floats apart; BM = 128 is a multiple of 32 banks, so the two groups hit the same banks
//    (2-way conflict). Padding each row of As by PAD floats (4) shifts the second group by 16 banks.
//  - Reading B: with TN = 8 contiguous columns per thread, the 16 threads of a warp that read
//    different columns read float4s 32 bytes apart, twice the span a conflict-free read needs.
//    Here each thread owns its TN columns as TN/4 groups of 4, spaced (BN/TN)*4 apart, so
//    neighbouring threads read neighbouring float4s. Rows are split the same way (TM/4 groups).
// m, n, k must be multiples of BM, BN, BK (no bounds checks).
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
#ifndef PAD
#define PAD 4
#endif
#ifndef MINB
#define MINB 2      // __launch_bounds__ minimum blocks per SM: caps registers at 65536/(NT*MINB)
#endif
#define NT (BM * BN / (TM * TN))
#define RT (BM / TM)      // threads along M
#define CT (BN / TN)      // threads along N
#define LDA_S (BM + PAD)  // row length of the transposed A tile

extern "C" __global__ void __launch_bounds__(NT, MINB)
sgemm_bankfree(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
               int m, int n, int k)
{
	__shared__ __align__(16) float As[BK * LDA_S];   // As[d * LDA_S + row]
	__shared__ __align__(16) float Bs[BK * BN];      // Bs[d * BN + col]
	const int tid = threadIdx.x;
	const int tcol = tid % CT;
	const int trow = tid / CT;
	const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
	const float *Ab = A + (size_t)bm * k;
	const float *Bb = B + bn;
	float acc[TM][TN];
	float ra[TM], rb[TN];
#pragma unroll
	for (int i = 0; i < TM; ++i)
#pragma unroll
		for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

	for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
		for (int s = 0; s < (BM * BK / 4 + NT - 1) / NT; ++s) {
			const int i = tid + s * NT;
			if (i >= BM * BK / 4) break;
			const int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
			const float4 v = *reinterpret_cast<const float4 *>(Ab + (size_t)r * k + k0 + c);
			As[(c + 0) * LDA_S + r] = v.x;
			As[(c + 1) * LDA_S + r] = v.y;
			As[(c + 2) * LDA_S + r] = v.z;
			As[(c + 3) * LDA_S + r] = v.w;
		}
#pragma unroll
		for (int s = 0; s < (BK * BN / 4 + NT - 1) / NT; ++s) {
			const int i = tid + s * NT;
			if (i >= BK * BN / 4) break;
			const int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
			*reinterpret_cast<float4 *>(&Bs[r * BN + c]) =
				*reinterpret_cast<const float4 *>(Bb + (size_t)(k0 + r) * n + c);
		}
		__syncthreads();
#pragma unroll
		for (int d = 0; d < BK; ++d) {
#pragma unroll
			for (int i = 0; i < TM / 4; ++i) {
				const float4 t = *reinterpret_cast<const float4 *>(&As[d * LDA_S + i * RT * 4 + trow * 4]);
				ra[4 * i] = t.x; ra[4 * i + 1] = t.y; ra[4 * i + 2] = t.z; ra[4 * i + 3] = t.w;
			}
#pragma unroll
			for (int j = 0; j < TN / 4; ++j) {
				const float4 t = *reinterpret_cast<const float4 *>(&Bs[d * BN + j * CT * 4 + tcol * 4]);
				rb[4 * j] = t.x; rb[4 * j + 1] = t.y; rb[4 * j + 2] = t.z; rb[4 * j + 3] = t.w;
			}
#pragma unroll
			for (int i = 0; i < TM; ++i)
#pragma unroll
				for (int j = 0; j < TN; ++j) acc[i][j] += ra[i] * rb[j];
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < TM; ++i) {
		const int row = bm + (i / 4) * RT * 4 + trow * 4 + (i % 4);
#pragma unroll
		for (int j = 0; j < TN / 4; ++j) {
			const int col = bn + j * CT * 4 + tcol * 4;
			*reinterpret_cast<float4 *>(C + (size_t)row * n + col) =
				make_float4(acc[i][4 * j], acc[i][4 * j + 1], acc[i][4 * j + 2], acc[i][4 * j + 3]);
		}
	}
}
