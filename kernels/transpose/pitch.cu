/* pitch: the padded tile of the rows stage, reading in through a row stride ld given in bytes, so that
 * one kernel serves a packed matrix (ld = 4 * cols) and a pitched one (ld = the pitch cudaMallocPitch
 * returned, a multiple of 512 bytes on current GPUs). With VEC 4 each thread loads a float4 (16 bytes)
 * at a time, which needs every row to start on a 16-byte boundary: always true for a pitched matrix,
 * true for a packed one only when cols is a multiple of 4. Otherwise the load falls back to one float
 * per thread, a warp reading 32 consecutive floats of a row. The stores are those of the rows stage. */
#ifndef TILE
#define TILE 64
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 4
#endif
#ifndef VEC
#define VEC 4
#endif

extern "C" __global__ void transpose_ld(const float *__restrict__ in, long long ld, float *__restrict__ out,
                                        int rows, int cols)
{
	__shared__ float tile[TILE][TILE + 1];
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int bx = blockIdx.x * TILE, by = blockIdx.y * TILE;
	const char *base = (const char *)in;

	if (VEC == 4 && (ld & 15) == 0) {
		/* The block's TILE * BLOCK_ROWS threads as float4 slots: TILE / 4 of them cover a tile row, so
		 * one pass loads 4 * BLOCK_ROWS rows (the stage's constraint makes that divide TILE). */
		const int t = ty * TILE + tx, vc = t % (TILE / 4), vr = t / (TILE / 4), c = bx + 4 * vc;
#pragma unroll
		for (int j = 0; j < TILE; j += 4 * BLOCK_ROWS) {
			const int r = by + vr + j;
			if (r >= rows || c >= cols) continue;
			const float *row = (const float *)(base + (long long)r * ld);
			float *dst = &tile[vr + j][4 * vc];
			if (c + 3 < cols) {
				const float4 v = *(const float4 *)(row + c);
				dst[0] = v.x; dst[1] = v.y; dst[2] = v.z; dst[3] = v.w;
			} else {
				for (int q = 0; c + q < cols; q++) dst[q] = row[c + q];   /* the last, partial float4 of a row */
			}
		}
	} else if (bx + tx < cols) {
#pragma unroll
		for (int j = 0; j < TILE; j += BLOCK_ROWS)
			if (by + ty + j < rows)
				tile[ty + j][tx] = ((const float *)(base + (long long)(by + ty + j) * ld))[bx + tx];
	}
	__syncthreads();
	if (by + tx < rows) {
#pragma unroll
		for (int j = 0; j < TILE; j += BLOCK_ROWS)
			if (bx + ty + j < cols)
				out[(long long)(bx + ty + j) * rows + by + tx] = tile[tx][ty + j];
	}
}
