// The 3x3 convolution of direct.cu (stride 1, padding 1, FP32, NCHW) by Winograd's F(2x2, 3x3).
//
// The output is cut into 2 x 2 tiles; each needs a 4 x 4 tile d of the input (one pixel of halo all
// round, zeros outside the image). For one input channel and one output channel, the 2 x 2 outputs
// are
//   Y = A^T [ U .* V ] A,   U = G g G^T (winograd_filter.cuh),   V = B^T d B,
// with .* the elementwise product of two 4 x 4 matrices and
//   B^T = | 1  0 -1  0 |        A^T = | 1  1  1  0 |
//         | 0  1  1  0 |              | 0  1 -1 -1 |
//         | 0 -1  1  0 |
//         | 0  1  0 -1 |
// 16 multiplications for 4 outputs where the direct sum takes 36. Since A^T (.) A is linear, the
// products can be summed over the input channels first and transformed once per output channel:
// M = sum over ch of U[ch][o] .* V[ch], then Y = A^T M A. For each of the 16 positions of the 4 x 4
// matrices that sum is a matrix product, (tiles x c) . (c x k): 16 independent GEMMs. B^T, A^T hold
// only 0 and +-1, so both transforms are additions.
//
// A block has 32 x KY threads: 32 tiles (x) by KY groups of KB output channels (y). It walks the
// input channels KY at a time: each thread transforms one channel of one tile into shared memory (so
// the block's KY * KB output channels share each transform), the block copies those channels' U
// matrices for its output channels into shared memory, and then each thread accumulates its tile's
// 16 products for each of its KB output channels: 16 * KB sums in registers, the 16 GEMMs done as
// one outer product per channel. At the end each thread transforms its KB sums and stores 2 x 2
// outputs per output channel (fewer at the image's edge when h or w is odd).
//
// Tunables (-D): KY (channel groups per block = input channels per round), KB (output channels per thread).
#ifndef KY
#define KY 4
#endif
#ifndef KB
#define KB 8
#endif
#include "winograd_filter.cuh"

// V = B^T d B: rows, then columns.
__device__ __forceinline__ void input_transform(const float d[4][4], float v[16])
{
	float t[4][4];
#pragma unroll
	for (int s = 0; s < 4; s++) {
		t[0][s] = d[0][s] - d[2][s];
		t[1][s] = d[1][s] + d[2][s];
		t[2][s] = d[2][s] - d[1][s];
		t[3][s] = d[1][s] - d[3][s];
	}
#pragma unroll
	for (int a = 0; a < 4; a++) {
		v[4 * a + 0] = t[a][0] - t[a][2];
		v[4 * a + 1] = t[a][1] + t[a][2];
		v[4 * a + 2] = t[a][2] - t[a][1];
		v[4 * a + 3] = t[a][1] - t[a][3];
	}
}

// Y = A^T M A: the 2 x 2 outputs of one tile.
__device__ __forceinline__ void output_transform(const float m[16], float y[2][2])
{
	float z[2][4];
#pragma unroll
	for (int b = 0; b < 4; b++) {
		z[0][b] = m[b] + m[4 + b] + m[8 + b];
		z[1][b] = m[4 + b] - m[8 + b] - m[12 + b];
	}
#pragma unroll
	for (int i = 0; i < 2; i++) {
		y[i][0] = z[i][0] + z[i][1] + z[i][2];
		y[i][1] = z[i][1] - z[i][2] - z[i][3];
	}
}

extern "C" __global__ void __launch_bounds__(32 * KY) conv2d_winograd(const float *__restrict__ x, const float *__restrict__ U,
                                                                    float *__restrict__ y, int n, int c, int k, int h, int w)
{
	__shared__ float vs[KY][16][32];                  // [channel][position][tile]
	__shared__ float4 us[KY][KY * KB][4];             // [channel][output channel][position / 4]
	const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 32 + tx;
	const int tiles_w = (w + 1) / 2, tiles_h = (h + 1) / 2;
	const long long per_img = (long long)tiles_w * tiles_h;
	const long long t = (long long)blockIdx.x * 32 + tx;   // this thread's tile
	const bool live = t < (long long)n * per_img;
	const long long img = live ? t / per_img : 0;
	const int rem = (int)(t - img * per_img);
	const int i0 = 2 * (rem / tiles_w), j0 = 2 * (rem % tiles_w);   // the tile's top-left output
	const int kbase = blockIdx.y * KY * KB;
	const long long hw = (long long)h * w;

	float m[KB][16];
#pragma unroll
	for (int kk = 0; kk < KB; kk++)
#pragma unroll
		for (int e = 0; e < 16; e++) m[kk][e] = 0.0f;

	for (int c0 = 0; c0 < c; c0 += KY) {
		__syncthreads();   // the previous round's reads are done
		{
			const int ch = c0 + ty;
			float d[4][4];
			const float *xc = x + (img * c + ch) * hw;
#pragma unroll
			for (int r = 0; r < 4; r++)
#pragma unroll
				for (int s = 0; s < 4; s++) {
					const int ii = i0 + r - 1, jj = j0 + s - 1;
					d[r][s] = (live && ch < c && ii >= 0 && ii < h && jj >= 0 && jj < w) ? xc[(long long)ii * w + jj] : 0.0f;
				}
			float v[16];
			input_transform(d, v);
#pragma unroll
			for (int e = 0; e < 16; e++) vs[ty][e][tx] = v[e];
		}
		for (int idx = tid; idx < KY * KY * KB * 4; idx += 32 * KY) {
			const int ch = idx / (KY * KB * 4), kl = idx / 4 % (KY * KB), q = idx % 4;
			const int cg = c0 + ch, kg = kbase + kl;
			us[ch][kl][q] = (cg < c && kg < k) ? reinterpret_cast<const float4 *>(U)[((long long)cg * k + kg) * 4 + q]
			                                   : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
		}
		__syncthreads();
#pragma unroll
		for (int ch = 0; ch < KY; ch++) {
			float v[16];
#pragma unroll
			for (int e = 0; e < 16; e++) v[e] = vs[ch][e][tx];
#pragma unroll
			for (int kk = 0; kk < KB; kk++) {
#pragma unroll
				for (int q = 0; q < 4; q++) {
					const float4 u = us[ch][ty * KB + kk][q];
					m[kk][4 * q + 0] = fmaf(u.x, v[4 * q + 0], m[kk][4 * q + 0]);
					m[kk][4 * q + 1] = fmaf(u.y, v[4 * q + 1], m[kk][4 * q + 1]);
					m[kk][4 * q + 2] = fmaf(u.z, v[4 * q + 2], m[kk][4 * q + 2]);
					m[kk][4 * q + 3] = fmaf(u.w, v[4 * q + 3], m[kk][4 * q + 3]);
				}
			}
		}
	}

	if (!live) return;
#pragma unroll
	for (int kk = 0; kk < KB; kk++) {
		const int o = kbase + ty * KB + kk;
		if (o >= k) break;
		float out[2][2];
		output_transform(m[kk], out);
		float *yo = y + (img * k + o) * hw;
#pragma unroll
		for (int i = 0; i < 2; i++)
#pragma unroll
			for (int j = 0; j < 2; j++)
				if (i0 + i < h && j0 + j < w) yo[(long long)(i0 + i) * w + j0 + j] = out[i][j];
	}
}
