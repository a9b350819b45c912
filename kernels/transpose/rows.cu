/* rows: the padded tile, moved by TILE x BLOCK_ROWS threads: each thread reads and writes
 * TILE / BLOCK_ROWS elements, BLOCK_ROWS rows apart (the classic 32 x 8: four per thread). */
#ifndef TILE
#define TILE 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

extern "C" __global__ void transpose_rows(const float *__restrict__ in, float *__restrict__ out,
                                          int rows, int cols)
{
	__shared__ float tile[TILE][TILE + 1];
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int bx = blockIdx.x * TILE, by = blockIdx.y * TILE;

	if (bx + tx < cols) {
#pragma unroll
		for (int j = 0; j < TILE; j += BLOCK_ROWS)
			if (by + ty + j < rows)
				tile[ty + j][tx] = in[(long long)(by + ty + j) * cols + bx + tx];
	}
	__syncthreads();
	if (by + tx < rows) {
#pragma unroll
		for (int j = 0; j < TILE; j += BLOCK_ROWS)
			if (bx + ty + j < cols)
				out[(long long)(bx + ty + j) * rows + by + tx] = tile[tx][ty + j];
	}
}
