/* Exercise winograd: the output transform of Winograd's F(2x2, 3x3).
 *
 * Everything else is in place: winograd_filter (winograd_filter.cuh) turns each 3 x 3 filter g into
 * U = G g G^T once, input_transform turns each 4 x 4 input tile d into V = B^T d B, and the kernel sums
 * the 16 products U .* V over the input channels into m, one 4 x 4 matrix per tile and output
 * channel. What is missing is the last step, from m back to the tile's 2 x 2 outputs:
 *
 *   Y = A^T m A,   A^T = | 1  1  1  0 |
 *                        | 0  1 -1 -1 |
 *
 * output_transform below gets every one of the four outputs from the same formula, the one for the
 * top-left output y[0][0]. Write the other three. A wrong sign or a wrong index is not slow, it is
 * wrong: the check compares each output with the direct convolution's.
 *
 * m[4 * a + b] is row a, column b of the 4 x 4 matrix.
 * Tunables (-D): KY, KB, as in the stage's own kernel (kernels/conv2d/winograd.cu).
 * Passing: within the lesson's tolerance at every size, and at least 0.9x the speed of the stage's own kernel.
 */
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

// Y = A^T m A: the 2 x 2 outputs of one tile.
__device__ __forceinline__ void output_transform(const float m[16], float y[2][2])
{
	// Row 0 of A^T (1 1 1 0) on both sides gives the top-left output: the sum of m's 3 x 3 top-left corner.
	const float top_left = m[0] + m[1] + m[2] + m[4] + m[5] + m[6] + m[8] + m[9] + m[10];
	// TODO: y[0][1] takes row 0 of A^T on the left and row 1 (0 1 -1 -1) on the right; y[1][0] the
	// other way round; y[1][1] row 1 on both sides. Work each out (or apply A^T to the rows of m
	// first, then to the columns, as input_transform does with B^T).
	y[0][0] = top_left;
	y[0][1] = top_left;
	y[1][0] = top_left;
	y[1][1] = top_left;
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
