// A 1x1 (pointwise) convolution, FP32, NCHW, and the two element-wise steps that usually follow it:
//   y[img][o][p] = ReLU( sum over i of filter[o][i] * x[img][i][p]  +  bias[o] )
// with p a pixel of the h x w image (hw = h * w of them), i one of c input channels, o one of k
// output channels. A 1x1 convolution is a small matrix product per pixel: each pixel's c values in,
// its k values out.
//
// conv1x1 is the same kernel in the first three stages; what it does after the sums is chosen by
// the stage's options: -DADD_BIAS=1 adds the bias before the store, -DRELU=1 applies the ReLU too.
// Without them the stage runs bias_add and relu afterwards, as separate kernels over y.
//
// One thread per pixel. The block first copies the filter into shared memory, transposed to
// ws[i][o] and padded with zeros to a multiple of KT outputs, so that a 16-byte load gives the
// weights of 4 outputs for one input channel. The thread then reads its pixel's c inputs (lanes of a
// warp read neighbouring pixels: coalesced) and keeps KT sums in registers; with k <= KT, x is read
// once. Each output channel is then stored, again coalesced across the warp.
//
// Tunables (-D): BLOCK (threads per block), KT (output channels per pass, a multiple of 4).
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef KT
#define KT 16
#endif
#ifndef ADD_BIAS
#define ADD_BIAS 0
#endif
#ifndef RELU
#define RELU 0
#endif
#include "filter.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK) conv1x1(const float *__restrict__ x, const float *__restrict__ filter,
                                                          const float *__restrict__ bias, float *__restrict__ y, int c,
                                                          int k, long long hw, long long pixels)
{
	extern __shared__ float4 smem[];
	float *ws = reinterpret_cast<float *>(smem);
	const int kp = padded_outputs(k);
	load_filter(ws, filter, c, k, kp);

	const long long q = (long long)blockIdx.x * BLOCK + threadIdx.x;   // pixel over the whole batch
	if (q >= pixels) return;
	const long long img = q / hw, p = q - img * hw;
	const float *xp = x + img * c * hw + p;
	float *yp = y + img * k * hw + p;

	for (int o0 = 0; o0 < k; o0 += KT) {
		float acc[KT];
#pragma unroll
		for (int j = 0; j < KT; j++) acc[j] = 0.0f;
#pragma unroll 4
		for (int i = 0; i < c; i++) {
			const float v = xp[i * hw];
			const float4 *w4 = reinterpret_cast<const float4 *>(ws + i * kp + o0);
#pragma unroll
			for (int j = 0; j < KT / 4; j++) {
				const float4 w = w4[j];
				acc[4 * j + 0] = fmaf(w.x, v, acc[4 * j + 0]);
				acc[4 * j + 1] = fmaf(w.y, v, acc[4 * j + 1]);
				acc[4 * j + 2] = fmaf(w.z, v, acc[4 * j + 2]);
				acc[4 * j + 3] = fmaf(w.w, v, acc[4 * j + 3]);
			}
		}
#pragma unroll
		for (int j = 0; j < KT; j++) {
			if (o0 + j >= k) break;
			float out = acc[j];
#if ADD_BIAS
			out += bias[o0 + j];
#endif
#if RELU
			out = fmaxf(out, 0.0f);
#endif
			yp[(o0 + j) * hw] = out;
		}
	}
}

// y += bias[channel], element by element over the whole of y (total = n * k * hw elements).
extern "C" __global__ void __launch_bounds__(BLOCK) bias_add(float *__restrict__ y, const float *__restrict__ bias, int k,
                                                           long long hw, long long total)
{
	const long long e = (long long)blockIdx.x * BLOCK + threadIdx.x;
	if (e < total) y[e] += bias[(e / hw) % k];
}

// y = max(y, 0), element by element.
extern "C" __global__ void __launch_bounds__(BLOCK) relu(float *__restrict__ y, long long total)
{
	const long long e = (long long)blockIdx.x * BLOCK + threadIdx.x;
	if (e < total) y[e] = fmaxf(y[e], 0.0f);
}
