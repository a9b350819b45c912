// Stage 6: 16-byte (float4) loads and stores everywhere, with A transposed in shared memory.
// Global memory: each thread loads float4s of A and B (one 16-byte instruction instead of four).
// A is written into shared memory transposed, As[BK][BM], so that the TM values of A a thread needs
// for one k are contiguous and can be read as float4s too, like the TN values of B.
// No bounds checks: m must be a multiple of BM, n of BN and k of BK (the lesson's constraints), and
// the rows must be 16-byte aligned (n and k multiples of 4, implied by the tile constraints).
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
#define MINB 2      // __launch_bounds__ minimum blocks per SM: caps registers at 65536/(NT*MINB)
#endif
#define NT (BM * BN / (TM * TN))

extern "C" __global__ void __launch_bounds__(NT, MINB)
sgemm_vectorized(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                 int m, int n, int k)
{
	__shared__ __align__(16) float As[BK * BM];   // transposed: As[d * BM + row]
	__shared__ __align__(16) float Bs[BK * BN];   // Bs[d * BN + col]
	const int tid = threadIdx.x;
	const int tcol = tid % (BN / TN);
	const int trow = tid / (BN / TN);
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
			As[(c + 0) * BM + r] = v.x;
			As[(c + 1) * BM + r] = v.y;
			As[(c + 2) * BM + r] = v.z;
			As[(c + 3) * BM + r] = v.w;
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
			for (int i = 0; i < TM; i += 4) {
				const float4 t = *reinterpret_cast<const float4 *>(&As[d * BM + trow * TM + i]);
				ra[i] = t.x; ra[i + 1] = t.y; ra[i + 2] = t.z; ra[i + 3] = t.w;
			}
#pragma unroll
			for (int j = 0; j < TN; j += 4) {
				const float4 t = *reinterpret_cast<const float4 *>(&Bs[d * BN + tcol * TN + j]);
				rb[j] = t.x; rb[j + 1] = t.y; rb[j + 2] = t.z; rb[j + 3] = t.w;
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
		float *crow = C + (size_t)(bm + trow * TM + i) * n + bn + tcol * TN;
#pragma unroll
		for (int j = 0; j < TN; j += 4)
			*reinterpret_cast<float4 *>(crow + j) = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
	}
}
