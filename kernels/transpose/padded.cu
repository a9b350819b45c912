/* padded: tile.cu with one unused column per row of the shared tile, tile[TILE][TILE + 1]. Element
 * (r, c) then sits in bank (r * (TILE + 1) + c) % 32, so a column (r = 0..31, c fixed) touches 32
 * different banks and is read in one pass. */
#ifndef TILE
#define TILE 32
#endif

extern "C" __global__ void transpose_padded(const float *__restrict__ in, float *__restrict__ out,
                                            int rows, int cols)
{
	__shared__ float tile[TILE][TILE + 1];
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int bx = blockIdx.x * TILE, by = blockIdx.y * TILE;

	if (bx + tx < cols && by + ty < rows)
		tile[ty][tx] = in[(long long)(by + ty) * cols + bx + tx];
	__syncthreads();
	if (by + tx < rows && bx + ty < cols)
		out[(long long)(bx + ty) * rows + by + tx] = tile[tx][ty];
}
