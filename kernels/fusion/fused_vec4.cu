// The fused convolution + bias + ReLU of the previous stage, with four neighbouring pixels per
// thread: every load of x and every store of y is 16 bytes (a float4), and each weight read from
// shared memory serves four pixels instead of one. The work per pixel is unchanged; what changes is
// the number of instructions that move it (a quarter of the global loads and stores, a quarter of
// the shared-memory loads) and the bytes each warp has in flight per load (512 instead of 128).
//
// 16-byte accesses need 16-byte alignment: a pixel row starts at a multiple of 4 floats only when hw
// is one. Otherwise the kernel falls back to one pixel at a time (the same sums, four pixels per
// thread in a loop), so any size is right.
//
// Tunables (-D): BLOCK (threads per block), KT (output channels per pass, a multiple of 4).
#ifndef BLOCK
#define BLOCK 128
#endif
#ifndef KT
#define KT 16
#endif
#include "filter.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK) conv1x1_vec4(const float *__restrict__ x, const float *__restrict__ filter,
                                                               const float *__restrict__ bias, float *__restrict__ y, int c,
                                                               int k, long long hw, long long pixels)
{
	extern __shared__ float4 smem[];
	float *ws = reinterpret_cast<float *>(smem);
	const int kp = padded_outputs(k);
	load_filter(ws, filter, c, k, kp);
	const long long first = (long long)blockIdx.x * BLOCK * 4;   // this block's first pixel

	if (hw % 4 == 0) {
		// Pixels q .. q + 3 lie in one image, since hw and q are multiples of 4.
		const long long q = first + 4LL * threadIdx.x;
		if (q >= pixels) return;
		const long long img = q / hw, p = q - img * hw, hw4 = hw / 4;
		const float4 *xp = reinterpret_cast<const float4 *>(x + img * c * hw + p);
		float4 *yp = reinterpret_cast<float4 *>(y + img * k * hw + p);
		for (int o0 = 0; o0 < k; o0 += KT) {
			float4 acc[KT];
#pragma unroll
			for (int j = 0; j < KT; j++) acc[j] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll 4
			for (int i = 0; i < c; i++) {
				const float4 v = xp[i * hw4];
				const float4 *w4 = reinterpret_cast<const float4 *>(ws + i * kp + o0);
#pragma unroll
				for (int j = 0; j < KT / 4; j++) {
					const float4 w = w4[j];
					const float wj[4] = { w.x, w.y, w.z, w.w };
#pragma unroll
					for (int t = 0; t < 4; t++) {
						float4 &a = acc[4 * j + t];
						a.x = fmaf(wj[t], v.x, a.x);
						a.y = fmaf(wj[t], v.y, a.y);
						a.z = fmaf(wj[t], v.z, a.z);
						a.w = fmaf(wj[t], v.w, a.w);
					}
				}
			}
#pragma unroll
			for (int j = 0; j < KT; j++) {
				if (o0 + j >= k) break;
				const float b = bias[o0 + j];
				float4 out;
				out.x = fmaxf(acc[j].x + b, 0.0f);
				out.y = fmaxf(acc[j].y + b, 0.0f);
				out.z = fmaxf(acc[j].z + b, 0.0f);
				out.w = fmaxf(acc[j].w + b, 0.0f);
				yp[(o0 + j) * hw4] = out;
			}
		}
		return;
	}

	// hw not a multiple of 4: one pixel at a time, the block's 4 * BLOCK pixels in four coalesced rounds.
	for (int r = 0; r < 4; r++) {
		const long long q = first + r * BLOCK + threadIdx.x;
		if (q >= pixels) return;
		const long long img = q / hw, p = q - img * hw;
		const float *xp = x + img * c * hw + p;
		float *yp = y + img * k * hw + p;
		for (int o0 = 0; o0 < k; o0 += KT) {
			float acc[KT];
#pragma unroll
			for (int j = 0; j < KT; j++) acc[j] = 0.0f;
			for (int i = 0; i < c; i++) {
				const float v = xp[i * hw];
#pragma unroll
				for (int j = 0; j < KT; j++) acc[j] = fmaf(ws[i * kp + o0 + j], v, acc[j]);
			}
#pragma unroll
			for (int j = 0; j < KT; j++) {
				if (o0 + j >= k) break;
				yp[(o0 + j) * hw] = fmaxf(acc[j] + bias[o0 + j], 0.0f);
			}
		}
	}
}
