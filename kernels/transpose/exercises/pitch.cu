/* Exercise: the pitched stage. in is no longer packed: row r of the matrix starts ld bytes after row
 * r - 1, where ld is the pitch cudaMallocPitch returned (at least 4 * cols, rounded up to the driver's
 * alignment). This starter still finds row r at in + r * cols, as if the rows were packed: it is right
 * only when ld happens to equal 4 * cols. TODO: find every row through ld. */
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
	(void)ld;   /* TODO: use it */

	if (bx + tx < cols) {
#pragma unroll
		for (int j = 0; j < TILE; j += BLOCK_ROWS)
			if (by + ty + j < rows)
				tile[ty + j][tx] = in[(long long)(by + ty + j) * cols + bx + tx];   /* TODO: row by + ty + j through ld */
	}
	__syncthreads();
	if (by + tx < rows) {
#pragma unroll
		for (int j = 0; j < TILE; j += BLOCK_ROWS)
			if (bx + ty + j < cols)
				out[(long long)(bx + ty + j) * rows + by + tx] = tile[tx][ty + j];
	}
}
