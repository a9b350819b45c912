/* Exercise rows: several elements per thread, smaller blocks.
 *
 * The padded stage gives each thread one element: one load, a barrier, one store, in blocks of 1024
 * threads. Here the same TILE x TILE padded tile is moved by TILE x BLOCK_ROWS threads (the launch's
 * block is [TILE, BLOCK_ROWS]), so each thread handles TILE / BLOCK_ROWS elements, BLOCK_ROWS rows
 * apart, and issues all its loads before the barrier and all its stores after it.
 *
 * As written each thread does only its first element: with BLOCK_ROWS < TILE most of the tile is
 * never loaded and most of out is never written.
 *
 * What to do:
 *   1. Load: loop j = 0, BLOCK_ROWS, 2 * BLOCK_ROWS, ... < TILE and copy row ty + j of the tile.
 *   2. Store: the same loop over the rows of out that this thread writes.
 *   Keep the bounds checks on every element (rows and cols need not be multiples of TILE).
 *
 * Tunables (-D): TILE (tile side, block width), BLOCK_ROWS (block height, divides TILE).
 * Passing: bit-exact at every size, and at least 0.9x the speed of the stage's own kernel. */
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

	/* TODO(1): repeat this for rows ty, ty + BLOCK_ROWS, ... of the tile. */
	if (bx + tx < cols && by + ty < rows)
		tile[ty][tx] = in[(long long)(by + ty) * cols + bx + tx];
	__syncthreads();
	/* TODO(2): repeat this for rows bx + ty, bx + ty + BLOCK_ROWS, ... of out. */
	if (by + tx < rows && bx + ty < cols)
		out[(long long)(bx + ty) * rows + by + tx] = tile[tx][ty];
}
