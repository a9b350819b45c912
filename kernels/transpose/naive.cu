/* naive: one thread per element, blocks of TILE x TILE threads. Thread (x, y) reads in[y][x] and
 * writes out[x][y]. Along a warp x changes: the reads are consecutive words (coalesced), the writes
 * land `rows` floats apart, one 32-byte sector per thread. */
#ifndef TILE
#define TILE 32
#endif

extern "C" __global__ void transpose_naive(const float *__restrict__ in, float *__restrict__ out,
                                           int rows, int cols)
{
	const int x = blockIdx.x * TILE + threadIdx.x;   /* column of in, row of out */
	const int y = blockIdx.y * TILE + threadIdx.y;   /* row of in, column of out */
	if (x < cols && y < rows)
		out[(long long)x * rows + y] = in[(long long)y * cols + x];
}
