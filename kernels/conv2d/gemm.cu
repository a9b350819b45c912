// Winograd's F(2x2, 3x3) (winograd.cu) with its 16 products done as register-tiled GEMMs.
//
// For each of the 16 positions e of the 4 x 4 matrices, M_e = V_e . U_e is a matrix product,
// (tiles x c) . (c x k). A block of NW warps takes 32 tiles and 64 output channels and walks the
// input channels CB at a time:
//  - each thread transforms one (tile, channel) pair's 4 x 4 input (two with CB 16 and NW 8),
//    V = B^T d B, into shared memory, laid out Vs[e][channel][tile];
//  - cp.async copies the channels' transformed filters, Us[e][channel][output channel], from U, which
//    winograd_filter_pos stores position-major once (rows of k rounded up to 4, so 16-byte copies);
//  - with NW 8, warp w multiplies positions 2w and 2w + 1: each lane keeps an 8 x 8 block (8 tiles by
//    8 output channels) for both, 128 sums, and per channel reads 4 float4 of V and 4 of U for 128
//    multiply-adds: the register tiling of a GEMM (sgemm's warptile), 16 times over. With NW 16 each
//    warp takes one position: 64 sums a lane, 128 registers, twice the warps to hide latencies.
// The next channels' inputs are loaded into registers and their filters copied while these are
// multiplied (two buffers). At the end the sums go through shared memory, Ms[e][output channel][tile],
// 32 output channels at a time, so that one thread holds all 16 positions of a (tile, output channel)
// pair, transforms them back, Y = A^T M A, and stores the 2 x 2 outputs (fewer at the edge when h or
// w is odd).
//
// Tunables (-D): CB (input channels per round: 4, 8 or 16), NW (warps: 8 or 16). The lesson's defaults
// are 16 and 16 where a block may have the 192 KiB of shared memory CB 16 needs, else 8 and 8.
#ifndef CB
#define CB 8
#endif
#ifndef NW
#define NW 8   // warps: 8 (two positions each) or 16 (one each)
#endif
#define NT (32 * NW)
#define PP (16 / NW)              // positions a warp multiplies
#define JV ((CB + NW - 1) / NW)   // (tile, channel) pairs a thread transforms per round
#define BT 32    // tiles per block
#define BK 64    // output channels per block
#define MS_LD (BT + 4)   // row of Ms: 16-byte aligned, and the rows of neighbouring lanes 16 banks apart
#include "winograd_filter.cuh"

#define VS_FLOATS (16 * CB * BT)   // shared memory: two of these and two of US_FLOATS, then Ms, 16 * (BK / 2) * MS_LD
#define US_FLOATS (16 * CB * BK)
#define UCOPIES (16 * CB * (BK / 4) / NT)   // 16-byte copies of filters a thread makes per round
#define ESTEP (NT / (BK / 4) / CB)          // positions between one thread's copies
static_assert((NT / (BK / 4)) % CB == 0 && UCOPIES >= 1, "a thread copies one channel of every round");

__device__ __forceinline__ void cp_async16(float *dst, const float *src, bool valid)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src),
	             "r"(valid ? 16 : 0) : "memory");
}

extern "C" __global__ void __launch_bounds__(NT) conv2d_wgemm(const float *__restrict__ x, const float *__restrict__ U,
                                                              float *__restrict__ y, int n, int c, int k, int h, int w)
{
	extern __shared__ __align__(16) float sm[];
	float *const Vs = sm, *const Us = sm + 2 * VS_FLOATS, *const Ms = sm;   // Ms reuses the buffers at the end
	const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	const int tiles_w = (w + 1) / 2, tiles_h = (h + 1) / 2;
	const long long per_img = (long long)tiles_w * tiles_h, tiles = n * per_img;
	const long long t0 = (long long)blockIdx.x * BT;
	const int k0 = blockIdx.y * BK, kp = (k + 3) & ~3;
	const long long hw = (long long)h * w;

	// The (tile, channel) pairs this thread transforms each round: tile lane, channels warp + NW j.
	const long long tt = t0 + lane;
	const bool tlive = tt < tiles;
	const long long timg = tlive ? tt / per_img : 0;
	const int trem = (int)(tt - timg * per_img);
	const int ti0 = 2 * (trem / tiles_w), tj0 = 2 * (trem % tiles_w);
	// Which of the 16 input values of the tile lie inside the image (bit 4r + s), the same in every
	// channel: computed once, so that a round's loads are an address and a predicate each.
	unsigned inside = 0;
#pragma unroll
	for (int r = 0; r < 4; r++)
#pragma unroll
		for (int s = 0; s < 4; s++) {
			const int ii = ti0 + r - 1, jj = tj0 + s - 1;
			if (tlive && ii >= 0 && ii < h && jj >= 0 && jj < w) inside |= 1u << (4 * r + s);
		}
	const float *xt = x + timg * c * hw + (long long)(ti0 - 1) * w + (tj0 - 1);   // the tile's corner, channel 0
	// A round's channels: warp + NW j of the round's CB, for j < JV.
	float d[JV][16];
	auto load_x = [&](int c0) {
#pragma unroll
		for (int j = 0; j < JV; j++) {
			const int cl = warp + NW * j, ch = c0 + cl;
			const unsigned in = cl < CB && ch < c ? inside : 0u;
			const float *xr = xt + ch * hw;
#pragma unroll
			for (int r = 0; r < 4; r++, xr += w)   // a row pointer each, the four columns at offsets
#pragma unroll
				for (int s = 0; s < 4; s++)
					d[j][4 * r + s] = (in >> (4 * r + s)) & 1u ? __ldg(xr + s) : 0.0f;
		}
	};
	auto store_v = [&](float *vs) {   // V = B^T d B into vs[e][channel][tile]
#pragma unroll
		for (int j = 0; j < JV; j++) {
			const int cl = warp + NW * j;
			if (cl >= CB) break;
			float t[16], v[16];
#pragma unroll
			for (int s = 0; s < 4; s++) {
				t[s] = d[j][s] - d[j][8 + s];
				t[4 + s] = d[j][4 + s] + d[j][8 + s];
				t[8 + s] = d[j][8 + s] - d[j][4 + s];
				t[12 + s] = d[j][4 + s] - d[j][12 + s];
			}
#pragma unroll
			for (int a = 0; a < 4; a++) {
				v[4 * a + 0] = t[4 * a + 0] - t[4 * a + 2];
				v[4 * a + 1] = t[4 * a + 1] + t[4 * a + 2];
				v[4 * a + 2] = t[4 * a + 2] - t[4 * a + 1];
				v[4 * a + 3] = t[4 * a + 1] - t[4 * a + 3];
			}
#pragma unroll
			for (int e = 0; e < 16; e++) vs[(e * CB + cl) * BT + lane] = v[e];
		}
	};
	// copy_u's share: one 16-byte column q of the block's output channels, one channel of each round
	// (NT / 16 is a multiple of CB), and every ESTEP-th position from eu0: the same shared-memory
	// offsets every round and source addresses that move by CB channels, worked out once here.
	const int qu = tid % (BK / 4), chu = (tid / (BK / 4)) % CB, eu0 = tid / (BK / 4) / CB;
	const bool ou = k0 + 4 * qu < kp;
	const float *const usrc = U + ((long long)chu * 16 + eu0) * kp + k0 + 4 * qu;
	float *const udst = Us + (eu0 * CB + chu) * BK + 4 * qu;
	const long long ustep = (long long)ESTEP * kp;
	auto copy_u = [&](int b, int c0) {   // Us[b][e][channel][output channel] from U[(ch * 16 + e) * kp + o]
		const bool valid = ou && c0 + chu < c;
		const float *src = valid ? usrc + (long long)c0 * 16 * kp : U;
		const long long step = valid ? ustep : 0;
#pragma unroll
		for (int it = 0; it < UCOPIES; it++) cp_async16(udst + b * US_FLOATS + it * ESTEP * CB * BK, src + it * step, valid);
		asm volatile("cp.async.commit_group;\n" ::: "memory");
	};

	// Lane (tg, kg): tiles 4tg .. 4tg+3 and 16+4tg .. ; output channels 4kg .. 4kg+3 and 32+4kg .. .
	const int tg = lane & 3, kg = lane >> 2;
	const int e0 = PP * warp;
	float acc[PP][8][8];
#pragma unroll
	for (int p = 0; p < PP; p++)
#pragma unroll
		for (int i = 0; i < 8; i++)
#pragma unroll
			for (int j = 0; j < 8; j++) acc[p][i][j] = 0.0f;

	const int rounds = (c + CB - 1) / CB;
	load_x(0);
	copy_u(0, 0);
	store_v(Vs);
	asm volatile("cp.async.wait_group 0;\n" ::: "memory");
	__syncthreads();
	for (int r = 0; r < rounds; r++) {
		const int b = r & 1;
		const bool next = r + 1 < rounds;
		if (next) {
			copy_u(b ^ 1, (r + 1) * CB);
			load_x((r + 1) * CB);
		}
		const float *vs = Vs + b * VS_FLOATS, *us = Us + b * US_FLOATS;
#pragma unroll
		for (int ch = 0; ch < CB; ch++) {
#pragma unroll
			for (int p = 0; p < PP; p++) {
				const float4 *vr = (const float4 *)(vs + ((e0 + p) * CB + ch) * BT);
				const float4 *ur = (const float4 *)(us + ((e0 + p) * CB + ch) * BK);
				const float4 v0 = vr[tg], v1 = vr[4 + tg], u0 = ur[kg], u1 = ur[8 + kg];
				const float a[8] = { v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w };
				const float bb[8] = { u0.x, u0.y, u0.z, u0.w, u1.x, u1.y, u1.z, u1.w };
#pragma unroll
				for (int i = 0; i < 8; i++)
#pragma unroll
					for (int j = 0; j < 8; j++) acc[p][i][j] = fmaf(a[i], bb[j], acc[p][i][j]);
			}
		}
		if (next) {
			store_v(Vs + (b ^ 1) * VS_FLOATS);
			asm volatile("cp.async.wait_group 0;\n" ::: "memory");
		}
		__syncthreads();
	}

	// Two passes of 32 output channels: Ms[e][output channel][tile] (72 KiB, so that the block fits
	// the 99 KiB of a GeForce SM), each lane writing its blocks as float4 along the tiles; then lane =
	// tile, warp w: the pass's output channels 4w .. 4w+3, Y = A^T M A.
	float *yimg = y + timg * k * hw;
#pragma unroll
	for (int half = 0; half < 2; half++) {
		if (half) __syncthreads();   // the first pass's reads are done
#pragma unroll
		for (int p = 0; p < PP; p++)
#pragma unroll
			for (int jj = 0; jj < 4; jj++) {
				const int j = 4 * half + jj;
				float *row = Ms + ((e0 + p) * (BK / 2) + 4 * kg + jj) * MS_LD;
				*(float4 *)(row + 4 * tg) = make_float4(acc[p][0][j], acc[p][1][j], acc[p][2][j], acc[p][3][j]);
				*(float4 *)(row + 16 + 4 * tg) = make_float4(acc[p][4][j], acc[p][5][j], acc[p][6][j], acc[p][7][j]);
			}
		__syncthreads();
		if (!tlive) continue;
#pragma unroll
		for (int j = 0; j < 32 / NW; j++) {
			const int ol = (32 / NW) * warp + j, o = k0 + 32 * half + ol;
			if (o >= k) break;
			float m[16];
#pragma unroll
			for (int e = 0; e < 16; e++) m[e] = Ms[(e * (BK / 2) + ol) * MS_LD + lane];
			float z[2][4];
#pragma unroll
			for (int q = 0; q < 4; q++) {
				z[0][q] = m[q] + m[4 + q] + m[8 + q];
				z[1][q] = m[4 + q] - m[8 + q] - m[12 + q];
			}
			float *yo = yimg + o * hw;
#pragma unroll
			for (int i = 0; i < 2; i++) {
				const float y0 = z[i][0] + z[i][1] + z[i][2], y1 = z[i][1] - z[i][2] - z[i][3];
				if (ti0 + i < h) {
					yo[(long long)(ti0 + i) * w + tj0] = y0;
					if (tj0 + 1 < w) yo[(long long)(ti0 + i) * w + tj0 + 1] = y1;
				}
			}
		}
	}
}
