// Stages shared and constant: the block first copies the pixels it needs into shared memory, a tile
// of (BY + 2r) rows of (BX + 2r) pixels (its BX x BY outputs and a halo of r on every side, edges
// clamped while loading), then each thread sums its (2r + 1)^2 taps from the tile.
//
// Every pixel of the tile is read from global memory once per block instead of once per tap per
// thread: global load instructions per output fall from (2r + 1)^2 to about (BX + 2r)(BY + 2r) /
// (BX BY). The taps now cost shared-memory loads: a warp is one row of 32 threads reading 32
// consecutive floats, one per bank.
//
// -DCONST_W=1 (stage constant): the weights come from c_w, a __constant__ array the lesson fills from
// the buffer w before the launches. Every thread of a warp reads the same weight at the same time,
// which the constant cache serves in one broadcast, and the compiler can use it as an operand of
// the FMA itself: the weight loads leave the load/store pipe. Without it (stage shared) w is read from
// global memory as in stage naive.
//
// Tunables (-D): BX x BY threads per block (BX 32: a warp is one row of the tile).
#include "gauss.cuh"
#ifndef CONST_W
#define CONST_W 0
#endif

#if CONST_W
__constant__ float c_w[2 * RMAX + 1];   // a global variable's name is not mangled: the lesson finds it as c_w
#define WT(i) c_w[i]
#else
#define WT(i) w[i]
#endif

template <int R>
__device__ void blur_tile(const float *src, float *dst, const float *w, int width, int height)
{
	extern __shared__ float tile[];
	const int TW = BX + 2 * R, TH = BY + 2 * R;
	int x0 = blockIdx.x * BX - R, y0 = blockIdx.y * BY - R;
	for (int i = threadIdx.y * BX + threadIdx.x; i < TW * TH; i += BX * BY) {
		int ty = i / TW, tx = i - ty * TW;
		tile[i] = src[(size_t)clampi(y0 + ty, 0, height - 1) * width + clampi(x0 + tx, 0, width - 1)];
	}
	__syncthreads();
	int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
	if (x >= width || y >= height) return;
	float sum = 0.0f;
#pragma unroll 1   // rolled: see gauss.cuh
	for (int dy = 0; dy <= 2 * R; dy++)
#pragma unroll
		for (int dx = 0; dx <= 2 * R; dx++)
			sum += WT(dy) * WT(dx) * tile[(threadIdx.y + dy) * TW + threadIdx.x + dx];
	dst[(size_t)y * width + x] = sum;
}

extern "C" __global__ void __launch_bounds__(BX * BY, GAUSS_MIN_BLOCKS(BX * BY))
gauss_tile(const float *src, float *dst, const float *w, int width, int height, int r)
{
	GAUSS_DISPATCH(r, blur_tile, src, dst, w, width, height);
}
