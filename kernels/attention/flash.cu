// attention/flash: FlashAttention-2's forward pass with mma.sync, for any GPU from sm_80 on.
// A block of 4 warps owns BLOCK_M query rows of one (batch, head); each warp owns BLOCK_M/4 of them
// as BLOCK_M/64 fragments of 16 rows. The block
//  - copies its Q tile to shared memory once (cp.async) and each warp loads its rows into registers
//    as mma A fragments (ldmatrix), where they stay for the whole loop;
//  - walks the keys in tiles of BLOCK_N: K and V tiles are double-buffered in shared memory, the copy
//    of tile j+1 (cp.async, no registers) running while tile j is multiplied. Rows are padded by 8
//    bf16 (16 bytes), so the 8 row addresses of an ldmatrix fall in 8 different bank groups;
//  - S = Q K^T with mma.sync m16n8k16 (bf16 in, FP32 accumulate), K fragments read with ldmatrix;
//  - the online softmax on S in registers: a row of a fragment is spread over the 4 lanes of a quad,
//    so its max and sum take two __shfl_xor_sync; p = exp2(s * scale*log2e - m * scale*log2e), one
//    FMA and one exp2; O and the running sum are multiplied by exp2((m_old - m_new) * scale*log2e);
//  - P is rounded to bf16 pairs in place: the accumulator layout of mma's C is the layout of its A
//    operand, so P is the A fragment of O += P V without moving between threads. V is stored with dim
//    contiguous (k x n row-major) and ldmatrix.trans hands it over in mma's column layout;
//  - at the end O / l is rounded to bf16, staged through the warp's rows of the Q tile and written
//    with 16-byte stores.
// Keys past seq are masked to -inf (their K and V rows are loaded as zeros); query rows past seq are
// computed on zeros and not written. The head dimension (64 or 128) is a template parameter chosen
// from `dim` at run time. Dynamic shared memory: (BLOCK_M + 4 * BLOCK_N) * (dim + 8) * 2 bytes.
#include <cuda_bf16.h>

#ifndef BLOCK_M
#define BLOCK_M 64
#endif
#ifndef BLOCK_N
#define BLOCK_N 64
#endif
#define NT 128                 // 4 warps
#define MT (BLOCK_M / 64)      // m16 fragments per warp
#define NN (BLOCK_N / 8)       // n8 tiles of S per fragment

#if BLOCK_M % 64 || BLOCK_N % 16
#error "BLOCK_M must be a multiple of 64 and BLOCK_N of 16"
#endif

__device__ __forceinline__ unsigned smem_u32(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// 16 bytes global -> shared without registers; ok == false writes 16 zero bytes instead.
__device__ __forceinline__ void cp_async16(unsigned dst, const void *src, bool ok)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(ok ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

__device__ __forceinline__ void ldsm_x4(unsigned addr, unsigned (&r)[4])
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldsm_x4_t(unsigned addr, unsigned (&r)[4])
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
// d += a b for one 16 x 8 x 16 tile (a: 4 registers of bf16 pairs, b: 2, d: 4 floats).
__device__ __forceinline__ void mma16816(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
	             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
__device__ __forceinline__ unsigned pack_bf16(float lo, float hi)
{
	__nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
	return *reinterpret_cast<unsigned *>(&v);
}

// Rows [row0, row0 + R) of a [seq][D] matrix into shared memory at s (row stride D + 8 elements);
// rows past seq become zeros. Every thread issues R * D / 8 / NT copies of 16 bytes.
template <int D, int R>
__device__ __forceinline__ void load_tile(unsigned s, const __nv_bfloat16 *g, int row0, int seq)
{
	constexpr int CH = D / 8;
	static_assert((R * CH) % NT == 0, "the tile must split evenly over the block");
#pragma unroll
	for (int it = 0; it < R * CH / NT; it++) {
		const int i = it * NT + threadIdx.x, r = i / CH, c = i % CH, row = row0 + r;
		const bool ok = row < seq;
		cp_async16(s + (r * (D + 8) + c * 8) * 2, g + (long long)(ok ? row : 0) * D + c * 8, ok);
	}
}

template <int D>
__device__ __forceinline__ void flash_body(const __nv_bfloat16 *__restrict__ Q, const __nv_bfloat16 *__restrict__ K,
                                           const __nv_bfloat16 *__restrict__ V, __nv_bfloat16 *__restrict__ O, int seq,
                                           float sl2, __nv_bfloat16 *smem)
{
	constexpr int LD = D + 8;                          // padded row, elements
	constexpr unsigned KV_BYTES = BLOCK_N * LD * 2;    // one K or V tile
	const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	const long long off = (long long)blockIdx.y * seq * D;
	Q += off; K += off; V += off; O += off;
	const int q0 = blockIdx.x * BLOCK_M, wrow = warp * 16 * MT;   // the warp's first row in the tile
	const unsigned sQ = smem_u32(smem), sK = sQ + BLOCK_M * LD * 2, sV = sK + 2 * KV_BYTES;
	const int nt = (seq + BLOCK_N - 1) / BLOCK_N;

	load_tile<D, BLOCK_M>(sQ, Q, q0, seq);
	load_tile<D, BLOCK_N>(sK, K, 0, seq);
	load_tile<D, BLOCK_N>(sV, V, 0, seq);
	cp_async_commit();

	float o[MT][D / 8][4], m[MT][2], l[MT][2];
#pragma unroll
	for (int mt = 0; mt < MT; mt++) {
#pragma unroll
		for (int d = 0; d < D / 8; d++) o[mt][d][0] = o[mt][d][1] = o[mt][d][2] = o[mt][d][3] = 0.f;
		m[mt][0] = m[mt][1] = __int_as_float(0xff800000);   // -infinity
		l[mt][0] = l[mt][1] = 0.f;
	}
	unsigned qf[MT][D / 16][4];

	for (int j = 0; j < nt; j++) {
		const int st = j & 1;
		if (j + 1 < nt) {   // tile j+1 into the other buffer, freed by the barrier that ended iteration j-1
			load_tile<D, BLOCK_N>(sK + (st ^ 1) * KV_BYTES, K, (j + 1) * BLOCK_N, seq);
			load_tile<D, BLOCK_N>(sV + (st ^ 1) * KV_BYTES, V, (j + 1) * BLOCK_N, seq);
			cp_async_commit();
			cp_async_wait<1>();   // everything but tile j+1 has landed
		} else {
			cp_async_wait<0>();
		}
		__syncthreads();
		if (j == 0) {   // Q fragments, once: matrices (rows 0-7 | 8-15) x (cols 0-7 | 8-15) of each 16 x 16
#pragma unroll
			for (int mt = 0; mt < MT; mt++)
#pragma unroll
				for (int kk = 0; kk < D / 16; kk++)
					ldsm_x4(sQ + ((wrow + mt * 16 + lane % 16) * LD + kk * 16 + (lane / 16) * 8) * 2, qf[mt][kk]);
		}
		const unsigned kb = sK + st * KV_BYTES, vb = sV + st * KV_BYTES;

		// S = Q K^T. One ldmatrix.x4 gives the B fragments of two n8 tiles (16 keys) for 16 of dim:
		// lanes 0-7 keys 0-7 dims 0-7, 8-15 keys 0-7 dims 8-15, 16-23 keys 8-15 dims 0-7, 24-31 keys 8-15 dims 8-15.
		float s[MT][NN][4];
#pragma unroll
		for (int mt = 0; mt < MT; mt++)
#pragma unroll
			for (int n = 0; n < NN; n++) s[mt][n][0] = s[mt][n][1] = s[mt][n][2] = s[mt][n][3] = 0.f;
#pragma unroll
		for (int kk = 0; kk < D / 16; kk++) {
#pragma unroll
			for (int n2 = 0; n2 < BLOCK_N / 16; n2++) {
				unsigned b[4];
				ldsm_x4(kb + ((n2 * 16 + lane % 8 + (lane / 16) * 8) * LD + kk * 16 + ((lane / 8) % 2) * 8) * 2, b);
#pragma unroll
				for (int mt = 0; mt < MT; mt++) {
					mma16816(s[mt][2 * n2], qf[mt][kk], b[0], b[1]);
					mma16816(s[mt][2 * n2 + 1], qf[mt][kk], b[2], b[3]);
				}
			}
		}

		// Keys past seq: -infinity, so exp2 gives them a weight of 0. Every tile starts below seq, so
		// every row keeps a finite maximum.
		if ((j + 1) * BLOCK_N > seq) {
#pragma unroll
			for (int mt = 0; mt < MT; mt++)
#pragma unroll
				for (int n = 0; n < NN; n++)
#pragma unroll
					for (int e = 0; e < 4; e++)
						if (j * BLOCK_N + n * 8 + 2 * (lane % 4) + (e & 1) >= seq) s[mt][n][e] = __int_as_float(0xff800000);
		}

		// Online softmax. This thread holds rows lane/4 (s[..][0..1]) and lane/4 + 8 (s[..][2..3]) of each
		// fragment; the other columns of those rows are in the 3 other lanes of its quad.
#pragma unroll
		for (int mt = 0; mt < MT; mt++) {
#pragma unroll
			for (int h = 0; h < 2; h++) {
				float mx = m[mt][h];
#pragma unroll
				for (int n = 0; n < NN; n++) mx = fmaxf(mx, fmaxf(s[mt][n][2 * h], s[mt][n][2 * h + 1]));
				mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
				mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
				const float corr = exp2f((m[mt][h] - mx) * sl2);   // 0 on the first tile (m = -inf)
				m[mt][h] = mx;
				const float mb = -mx * sl2;
				float sum = 0.f;
#pragma unroll
				for (int n = 0; n < NN; n++) {
					const float p0 = exp2f(fmaf(s[mt][n][2 * h], sl2, mb)), p1 = exp2f(fmaf(s[mt][n][2 * h + 1], sl2, mb));
					s[mt][n][2 * h] = p0;
					s[mt][n][2 * h + 1] = p1;
					sum += p0 + p1;
				}
				l[mt][h] = l[mt][h] * corr + sum;   // this thread's part of the row sum
#pragma unroll
				for (int d = 0; d < D / 8; d++) {
					o[mt][d][2 * h] *= corr;
					o[mt][d][2 * h + 1] *= corr;
				}
			}
		}

		// O += P V, 16 keys at a time. P's A fragment for keys 16kk..16kk+15 is S tiles 2kk and 2kk+1
		// as bf16 pairs. ldmatrix.trans of V: lanes 0-7 keys 0-7, 8-15 keys 8-15 (dims 0-7), 16-31 the
		// same keys for dims 8-15: the B fragments of two n8 tiles of dim.
#pragma unroll
		for (int kk = 0; kk < BLOCK_N / 16; kk++) {
			unsigned a[MT][4];
#pragma unroll
			for (int mt = 0; mt < MT; mt++) {
				a[mt][0] = pack_bf16(s[mt][2 * kk][0], s[mt][2 * kk][1]);
				a[mt][1] = pack_bf16(s[mt][2 * kk][2], s[mt][2 * kk][3]);
				a[mt][2] = pack_bf16(s[mt][2 * kk + 1][0], s[mt][2 * kk + 1][1]);
				a[mt][3] = pack_bf16(s[mt][2 * kk + 1][2], s[mt][2 * kk + 1][3]);
			}
#pragma unroll
			for (int d2 = 0; d2 < D / 16; d2++) {
				unsigned b[4];
				ldsm_x4_t(vb + ((kk * 16 + lane % 16) * LD + d2 * 16 + (lane / 16) * 8) * 2, b);
#pragma unroll
				for (int mt = 0; mt < MT; mt++) {
					mma16816(o[mt][2 * d2], a[mt], b[0], b[1]);
					mma16816(o[mt][2 * d2 + 1], a[mt], b[2], b[3]);
				}
			}
		}
		__syncthreads();   // buffer st is refilled (tile j+2) at the top of the next iteration
	}

	// O / l as bf16 into this warp's own rows of the Q tile (nobody else reads them), then 16-byte stores.
#pragma unroll
	for (int mt = 0; mt < MT; mt++) {
#pragma unroll
		for (int h = 0; h < 2; h++) {
			float lt = l[mt][h];
			lt += __shfl_xor_sync(0xffffffffu, lt, 1);
			lt += __shfl_xor_sync(0xffffffffu, lt, 2);
			const float inv = 1.f / lt;
			const int row = wrow + mt * 16 + lane / 4 + 8 * h;
#pragma unroll
			for (int d = 0; d < D / 8; d++)
				*reinterpret_cast<unsigned *>(smem + row * LD + d * 8 + 2 * (lane % 4)) =
					pack_bf16(o[mt][d][2 * h] * inv, o[mt][d][2 * h + 1] * inv);
		}
	}
	__syncwarp();
#pragma unroll
	for (int it = 0; it < 16 * MT * (D / 8) / 32; it++) {
		const int i = it * 32 + lane, r = wrow + i / (D / 8), c = i % (D / 8);
		if (q0 + r < seq)
			*reinterpret_cast<uint4 *>(O + (long long)(q0 + r) * D + c * 8) = *reinterpret_cast<const uint4 *>(smem + r * LD + c * 8);
	}
}

// Grid: [ceil(seq / BLOCK_M), batch * heads]; 128 threads. Q, K, V, O: [batch * heads][seq][dim] bf16.
extern "C" __global__ void __launch_bounds__(NT)
flash_attn(const __nv_bfloat16 *__restrict__ Q, const __nv_bfloat16 *__restrict__ K, const __nv_bfloat16 *__restrict__ V,
           __nv_bfloat16 *__restrict__ O, int seq, int dim, float scale)
{
	extern __shared__ __align__(16) __nv_bfloat16 smem[];
	const float sl2 = scale * 1.4426950408889634f;   // exp(x * scale) = exp2(x * scale * log2 e)
#if BLOCK_M == 64   // BLOCK_M 128 is for dim 64 only: 32 rows of Q and O at dim 128 do not fit a warp's registers
	if (dim == 128) flash_body<128>(Q, K, V, O, seq, sl2, smem);
	else
#endif
		flash_body<64>(Q, K, V, O, seq, sl2, smem);
}
