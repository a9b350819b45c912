/* tile: a block of TILE x TILE threads copies a TILE x TILE tile of in into shared memory with
 * coalesced reads, waits, then writes the transposed tile with coalesced writes: thread (tx, ty)
 * writes out[bx + ty][by + tx] = in[by + tx][bx + ty], which it finds at tile[tx][ty]. */
#ifndef TILE
#define TILE 32
#endif

extern "C" __global__ void transpose_tile(const float *__restrict__ in, float *__restrict__ out,
                                          int rows, int cols)
{
	__shared__ float tile[TILE][TILE];
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int bx = blockIdx.x * TILE, by = blockIdx.y * TILE;

	if (bx + tx < cols && by + ty < rows)
		tile[ty][tx] = in[(long long)(by + ty) * cols + bx + tx];
	__syncthreads();
	/* tile[tx][ty]: along a warp tx changes, so the 32 words are TILE words apart: with TILE = 32
	 * they all sit in the same bank and are read one after another. */
	if (by + tx < rows && bx + ty < cols)
		out[(long long)(bx + ty) * rows + by + tx] = tile[tx][ty];
}
