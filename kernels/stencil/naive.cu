// Stage naive: one thread per output pixel, every tap read from global memory.
//   out(x, y) = sum over dy, dx in [-r, r] of w[dy + r] * w[dx + r] * in(clamp(x + dx), clamp(y + dy))
// The 2D weight of a tap is the product of two 1D weights (a Gaussian is separable), so the lesson
// keeps one vector w of 2r + 1 weights, in global memory here like the image.
//
// Each thread makes (2r + 1)^2 image loads and, since w is an ordinary pointer that might alias the
// output, reloads weights as it goes. Neighbouring threads read almost the same pixels, so nearly all
// of those loads hit the L1 cache: the cost is the number of load instructions, not DRAM traffic.
//
// Tunables (-D): BX x BY threads per block.
#include "gauss.cuh"

template <int R>
__device__ void blur_naive(const float *src, float *dst, const float *w, int width, int height)
{
	int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
	if (x >= width || y >= height) return;
	float sum = 0.0f;
#pragma unroll 1   // rolled: see gauss.cuh
	for (int dy = -R; dy <= R; dy++) {
		const float *row = src + (size_t)clampi(y + dy, 0, height - 1) * width;
#pragma unroll
		for (int dx = -R; dx <= R; dx++)
			sum += w[dy + R] * w[dx + R] * row[clampi(x + dx, 0, width - 1)];
	}
	dst[(size_t)y * width + x] = sum;
}

extern "C" __global__ void __launch_bounds__(BX * BY, GAUSS_MIN_BLOCKS(BX * BY))
gauss_naive(const float *src, float *dst, const float *w, int width, int height, int r)
{
	GAUSS_DISPATCH(r, blur_naive, src, dst, w, width, height);
}
