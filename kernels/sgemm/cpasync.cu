// Stage 8: double buffering with cp.async. Two copies of each shared tile: while the block computes
// on one, the copy engine path (cp.async, sm_80+) brings the next k-slice into the other, straight from
// global to shared memory without passing through registers. One __syncthreads per k-step.
// A still has to land transposed, so it is copied 4 bytes at a time (cp.async of 4 bytes into the
// transposed, padded slot); B is copied 16 bytes at a time. Layout and thread mapping as stage 7.
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
#define RT (BM / TM)
#define CT (BN / TN)
#define LDA_S (BM + PAD)

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void cp_async4(void *dst, const void *src)
{
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(smem_addr(dst)), "l"(src));
}
__device__ __forceinline__ void cp_async16(void *dst, const void *src)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(dst)), "l"(src));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }

extern "C" __global__ void __launch_bounds__(NT, MINB)
sgemm_cpasync(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
              int m, int n, int k)
{
	__shared__ __align__(16) float As[2][BK * LDA_S];
	__shared__ __align__(16) float Bs[2][BK * BN];
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

	auto load_tile = [&](int buf, int k0) {
#pragma unroll
		for (int s = 0; s < (BM * BK / 4 + NT - 1) / NT; ++s) {
			const int i = tid + s * NT;
			if (i >= BM * BK / 4) break;
			const int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
			const float *src = Ab + (size_t)r * k + k0 + c;
#pragma unroll
			for (int e = 0; e < 4; ++e)
				cp_async4(&As[buf][(c + e) * LDA_S + r], src + e);
		}
#pragma unroll
		for (int s = 0; s < (BK * BN / 4 + NT - 1) / NT; ++s) {
			const int i = tid + s * NT;
			if (i >= BK * BN / 4) break;
			const int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
			cp_async16(&Bs[buf][r * BN + c], Bb + (size_t)(k0 + r) * n + c);
		}
		cp_async_commit();
	};

	const int ntiles = k / BK;
	load_tile(0, 0);
	for (int t = 0; t < ntiles; ++t) {
		const int cur = t & 1;
		cp_async_wait_all();   // tile t has landed (this thread's part) ...
		__syncthreads();       // ... everyone's part, and everyone is done with tile t-1
		if (t + 1 < ntiles)
			load_tile(cur ^ 1, (t + 1) * BK);   // overwrites the buffer of tile t-1
		const float *as = As[cur], *bs = Bs[cur];
#pragma unroll
		for (int d = 0; d < BK; ++d) {
#pragma unroll
			for (int i = 0; i < TM / 4; ++i) {
				const float4 v = *reinterpret_cast<const float4 *>(&as[d * LDA_S + i * RT * 4 + trow * 4]);
				ra[4 * i] = v.x; ra[4 * i + 1] = v.y; ra[4 * i + 2] = v.z; ra[4 * i + 3] = v.w;
			}
#pragma unroll
			for (int j = 0; j < TN / 4; ++j) {
				const float4 v = *reinterpret_cast<const float4 *>(&bs[d * BN + j * CT * 4 + tcol * 4]);
				rb[4 * j] = v.x; rb[4 * j + 1] = v.y; rb[4 * j + 2] = v.z; rb[4 * j + 3] = v.w;
			}
#pragma unroll
			for (int i = 0; i < TM; ++i)
#pragma unroll
				for (int j = 0; j < TN; ++j) acc[i][j] += ra[i] * rb[j];
		}
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
