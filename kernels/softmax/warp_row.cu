// Softmax with one warp per row and the row held in registers: each lane loads its share of the row
// once (16-byte loads, COLS_MAX / 128 of them issued before any is used, when cols is a multiple of
// 4), and everything after that happens on registers: the maximum and the sum with warp shuffles,
// then the exponentials and the division, then the stores. No shared memory and no __syncthreads:
// a warp's lanes exchange values directly. With the values at hand the online trick is not needed:
// the maximum is known before the first exponential.
//
// The row must fit: at most COLS_MAX values, COLS_MAX / 32 registers per lane. Rows longer than
// that need the online pass of the earlier stages, over pieces of the row (that is how flash
// attention runs a softmax over keys it never holds all at once).
//
// Tunables (-D): WARPS (rows per block), COLS_MAX (the longest row, a multiple of 128).
#include "common.cuh"
#ifndef WARPS
#define WARPS 4
#endif
#ifndef COLS_MAX
#define COLS_MAX 1024
#endif
#define PER (COLS_MAX / 32)

extern "C" __global__ void __launch_bounds__(WARPS * 32) softmax_warp(const float *__restrict__ x, float *__restrict__ y,
                                                                     int rows, int cols)
{
	const int lane = threadIdx.x & 31;
	const long long r = (long long)blockIdx.x * WARPS + (threadIdx.x >> 5);
	if (r >= rows) return;
	const float *row = x + r * cols;
	float *out = y + r * cols;
	float v[PER];
	const bool vec = cols % 4 == 0;   // rows start 16-byte aligned
	if (vec) {
		// Lane l holds float4 number j * 32 + l of the row, in v[4j .. 4j + 3].
#pragma unroll
		for (int j = 0; j < PER / 4; j++) {
			const int i = (j * 32 + lane) * 4;
			const float4 q = i < cols ? *reinterpret_cast<const float4 *>(row + i)
			                          : make_float4(NEG_INF, NEG_INF, NEG_INF, NEG_INF);
			v[4 * j] = q.x, v[4 * j + 1] = q.y, v[4 * j + 2] = q.z, v[4 * j + 3] = q.w;
		}
	} else {
		// Lane l holds element j * 32 + l in v[j].
#pragma unroll
		for (int j = 0; j < PER; j++) {
			const int i = j * 32 + lane;
			v[j] = i < cols ? row[i] : NEG_INF;
		}
	}
	float m = NEG_INF;
#pragma unroll
	for (int j = 0; j < PER; j++) m = fmaxf(m, v[j]);
	m = warp_max(m);
	float s = 0.0f;
#pragma unroll
	for (int j = 0; j < PER; j++) {
		v[j] = expf(v[j] - m);   // exp(-inf) = 0 past the row's end
		s += v[j];
	}
	s = warp_sum(s);
	if (vec) {
#pragma unroll
		for (int j = 0; j < PER / 4; j++) {
			const int i = (j * 32 + lane) * 4;
			if (i < cols)
				*reinterpret_cast<float4 *>(out + i) = make_float4(v[4 * j] / s, v[4 * j + 1] / s, v[4 * j + 2] / s, v[4 * j + 3] / s);
		}
	} else {
#pragma unroll
		for (int j = 0; j < PER; j++) {
			const int i = j * 32 + lane;
			if (i < cols) out[i] = v[j] / s;
		}
	}
}
