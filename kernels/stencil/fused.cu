// Stage fused: both 1D passes in one kernel, the intermediate kept in shared memory, so the image is
// read once and written once, as the model counts.
//
// A block of 32 x BY threads makes a 32-wide strip of BY * PY rows of output. It copies its input
// tile, (BY PY + 2r) rows of 32 + 2r pixels (edges clamped), into shared memory; then the row pass
// turns each tile row into 32 horizontal sums, into a second shared array; then each thread makes PY
// outputs of one column, PY consecutive rows, with the column pass. Those PY outputs need only
// PY + 2r horizontal sums between them: unrolled, the compiler loads each sum once and keeps it in a
// register for the 2r + 1 outputs that use it, so the column pass makes (PY + 2r) / PY shared loads
// per output instead of 2r + 1.
//
// Weights in __constant__ c_w, as in the earlier stages. Both passes sum in the order gauss_rows and
// gauss_cols do: the same bits as stage separable.
//
// Tunables (-D): BY (warps per block, each a row of 32 threads), PY (outputs per thread).
#include "gauss.cuh"

__constant__ float c_w[2 * RMAX + 1];   // a global variable's name is not mangled: the lesson finds it as c_w

template <int R>
__device__ void blur_fused(const float *__restrict__ src, float *__restrict__ dst, int width, int height)
{
	extern __shared__ float sm[];
	const int TW = 32 + 2 * R, OH = BY * PY, TH = OH + 2 * R;
	float *tile = sm;              // TH rows of TW input pixels
	float *hs = sm + TH * TW;      // TH rows of 32 horizontal sums
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int x0 = blockIdx.x * 32 - R, y0 = blockIdx.y * OH - R;
#pragma unroll 4
	for (int i = ty * 32 + tx; i < TH * TW; i += 32 * BY) {
		int r = i / TW, c = i - r * TW;
		tile[i] = src[clampi(y0 + r, 0, height - 1) * width + clampi(x0 + c, 0, width - 1)];
	}
	__syncthreads();
	for (int r = ty; r < TH; r += BY) {
		float sum = 0.0f;
#pragma unroll
		for (int dx = 0; dx <= 2 * R; dx++) sum += c_w[dx] * tile[r * TW + tx + dx];
		hs[r * 32 + tx] = sum;
	}
	__syncthreads();
	int x = blockIdx.x * 32 + tx;
	if (x >= width) return;
#pragma unroll
	for (int p = 0; p < PY; p++) {
		int y = blockIdx.y * OH + ty * PY + p;
		float sum = 0.0f;
#pragma unroll
		for (int dy = 0; dy <= 2 * R; dy++) sum += c_w[dy] * hs[(ty * PY + p + dy) * 32 + tx];
		if (y < height) dst[y * width + x] = sum;
	}
}

extern "C" __global__ void __launch_bounds__(32 * BY, GAUSS_MIN_BLOCKS(32 * BY))
gauss_fused(const float *__restrict__ src, float *__restrict__ dst, int width, int height, int r)
{
	GAUSS_DISPATCH(r, blur_fused, src, dst, width, height);
}
