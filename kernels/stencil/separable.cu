// Stages separable and texture: the blur as two 1D passes. A Gaussian's 2D weights are products,
// w[dy] * w[dx], so the 2D sum factors:
//   tmp(x, y) = sum over dx of w[dx + r] * in(clamp(x + dx), y)        (gauss_rows)
//   out(x, y) = sum over dy of w[dy + r] * tmp(x, clamp(y + dy))       (gauss_cols)
// 2 (2r + 1) taps per pixel instead of (2r + 1)^2: 18 instead of 81 at r = 4. The price is a second
// launch and the intermediate image tmp, written by the first pass and read by the second.
//
// One thread per pixel, each tap a load that the L1 cache serves (a warp's 32 neighbours read the
// same lines), weights in __constant__ c_w. The image pointers are const __restrict__: the compiler
// may then read them through the read-only (non-coherent) path, which is what __ldg asks for.
//
// -DTEX=1 (stage texture): the same passes, each reading its input through a texture object, a 1D
// texture over the buffer's linear memory fetched with tex1Dfetch<float>: the texture unit computes
// the address and its cache serves the load. On Hopper the texture cache and L1 are one memory.
//
// Tunables (-D): BX x BY threads per block.
#include "gauss.cuh"
#ifndef TEX
#define TEX 0
#endif

__constant__ float c_w[2 * RMAX + 1];   // a global variable's name is not mangled: the lesson finds it as c_w

#if TEX
typedef cudaTextureObject_t image_in;
#define LOAD(img, i) tex1Dfetch<float>(img, i)
#else
typedef const float *__restrict__ image_in;
#define LOAD(img, i) img[i]
#endif

template <int R>
__device__ void rows(image_in src, float *__restrict__ dst, int width, int height)
{
	int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
	if (x >= width || y >= height) return;
	int row = y * width;   // < 2^28 pixels: the lesson's size limit
	float sum = 0.0f;
#pragma unroll
	for (int dx = -R; dx <= R; dx++) sum += c_w[dx + R] * LOAD(src, row + clampi(x + dx, 0, width - 1));
	dst[row + x] = sum;
}

template <int R>
__device__ void cols(image_in src, float *__restrict__ dst, int width, int height)
{
	int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
	if (x >= width || y >= height) return;
	float sum = 0.0f;
#pragma unroll
	for (int dy = -R; dy <= R; dy++) sum += c_w[dy + R] * LOAD(src, clampi(y + dy, 0, height - 1) * width + x);
	dst[y * width + x] = sum;
}

extern "C" __global__ void __launch_bounds__(BX * BY, GAUSS_MIN_BLOCKS(BX * BY))
gauss_rows(image_in src, float *__restrict__ dst, int width, int height, int r)
{
	GAUSS_DISPATCH(r, rows, src, dst, width, height);
}

extern "C" __global__ void __launch_bounds__(BX * BY, GAUSS_MIN_BLOCKS(BX * BY))
gauss_cols(image_in src, float *__restrict__ dst, int width, int height, int r)
{
	GAUSS_DISPATCH(r, cols, src, dst, width, height);
}
