/* copy: not a transpose. out[y][x] = in[y][x] for the rows x cols matrix, with the thread layout of
 * the tiled transposes (blocks of TILE x BLOCK_ROWS threads, each thread TILE / BLOCK_ROWS rows of one
 * column of a TILE x TILE tile). Reads and writes are both coalesced: the ceiling for the stages. */
#ifndef TILE
#define TILE 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

extern "C" __global__ void copy_tiles(const float *__restrict__ in, float *__restrict__ out, int rows,
                                      int cols)
{
	const int x = blockIdx.x * TILE + threadIdx.x;
	const int y = blockIdx.y * TILE + threadIdx.y;
	if (x >= cols)
		return;
#pragma unroll
	for (int j = 0; j < TILE; j += BLOCK_ROWS)
		if (y + j < rows)
			out[(long long)(y + j) * cols + x] = in[(long long)(y + j) * cols + x];
}
