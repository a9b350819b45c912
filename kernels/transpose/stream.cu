/* stream: a TR x TC tile of in (TR rows, TC columns) through a padded shared tile, moved by TC x BR
 * threads, and an order in which the grid hands the tiles out. ORDER 0 is the other stages' order:
 * blockIdx.x walks along the rows of in, so the blocks resident at once read a band of whole rows of
 * in and write short segments into thousands of rows of out. ORDER 1 walks down the columns of in
 * instead: the resident blocks read short segments of many rows of in and write a band of whole rows
 * of out, one stream, as a copy does. */
#ifndef TR
#define TR 32
#endif
#ifndef TC
#define TC 64
#endif
#ifndef BR
#define BR 4
#endif
#ifndef ORDER
#define ORDER 1
#endif
#define NT (TC * BR)

extern "C" __global__ void __launch_bounds__(NT)
transpose_stream(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
	__shared__ float tile[TR][TC + 1];
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int bx = (ORDER ? blockIdx.y : blockIdx.x) * TC;    // first column of in
	const int by = (ORDER ? blockIdx.x : blockIdx.y) * TR;    // first row of in

	if (bx + tx < cols) {
#pragma unroll
		for (int j = 0; j < TR; j += BR)
			if (by + ty + j < rows)
				tile[ty + j][tx] = in[(long long)(by + ty + j) * cols + bx + tx];
	}
	__syncthreads();
	// The tile leaves as TC rows of out, each TR floats long: thread t writes column c = t % TR of
	// rows t / TR, t / TR + NT / TR, ... (consecutive lanes, consecutive floats of out). Reading
	// tile[c][r] down a column of the padded tile touches 32 different banks.
	const int t = ty * TC + tx, c = t % TR, r0 = t / TR;
	if (by + c < rows) {
#pragma unroll
		for (int s = 0; s < TC * TR / NT; ++s) {
			const int r = r0 + s * (NT / TR);
			if (bx + r < cols)
				out[(long long)(bx + r) * rows + by + c] = tile[c][r];
		}
	}
}
