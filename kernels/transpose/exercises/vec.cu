/* Exercise vec: sixteen-byte stores of the transposed tile.
 *
 * The stream stage's order (blockIdx.x walks down the columns of in) and a TR x TC padded shared tile,
 * moved by NT threads in one dimension. The loads are done: each thread reads float4s along the rows
 * of in (when cols is a multiple of 4). The stores are yours: a row of out is a column of the tile,
 * and each thread owns float4 slots of out's rows, four consecutive floats of one row of out each.
 *
 * As written, where rows is a multiple of 4, each thread stores only the first float of each of its
 * slots: three quarters of out are never written. (Where rows is not, the one-float path below is
 * complete.)
 *
 * What to do:
 *   1. Find the four values of slot (c, v): out[(bx + c) * rows + by + 4v + q] for q = 0..3 is the
 *      element in row by + 4v + q, column bx + c of in. Where is that in the tile?
 *   2. Store them with one 16-byte store: a float4 (make_float4) through a float4 pointer. The address
 *      is a multiple of 16 bytes because rows and 4v are multiples of 4.
 *   Four one-float stores also give the right answer, but on an H200 they ran at 0.85x the stage's
 *   speed, under the bar.
 *
 * Tunables (-D): TR, TC (the tile), NT (threads), VEC (4: float4 where the rows allow; 1: never).
 * Passing: bit-exact at every size, and at least 0.9x the speed of the stage's own kernel. */
#ifndef TR
#define TR 64
#endif
#ifndef TC
#define TC 64
#endif
#ifndef NT
#define NT 256
#endif
#ifndef VEC
#define VEC 4
#endif

extern "C" __global__ void __launch_bounds__(NT)
transpose_vec(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
	__shared__ float tile[TR][TC + 1];
	const int t = threadIdx.x;
	const int bx = blockIdx.y * TC;    // first column of in
	const int by = blockIdx.x * TR;    // first row of in

	if (VEC == 4 && (cols & 3) == 0) {
		// Float4 slot i is row r = i / (TC / 4) of the tile, columns 4v .. 4v + 3 with v = i % (TC / 4).
		// With rows of TC + 1 words, word q of slot (r, v) is in bank (r + 4v + q) % 32: at TC 64 the
		// lanes v and v + 8 of a warp meet in a bank (a 2-way conflict on these shared stores).
#pragma unroll
		for (int p = 0; p < TR * TC / 4 / NT; ++p) {
			const int i = t + p * NT, r = i / (TC / 4), v = i % (TC / 4), gc = bx + 4 * v;
			if (by + r < rows && gc < cols) {
				const float4 x = __ldg((const float4 *)(in + (long long)(by + r) * cols + gc));
				tile[r][4 * v] = x.x; tile[r][4 * v + 1] = x.y; tile[r][4 * v + 2] = x.z; tile[r][4 * v + 3] = x.w;
			}
		}
	} else {
#pragma unroll
		for (int p = 0; p < TR * TC / NT; ++p) {
			const int i = t + p * NT, r = i / TC, c = i % TC;
			if (by + r < rows && bx + c < cols)
				tile[r][c] = in[(long long)(by + r) * cols + bx + c];
		}
	}
	__syncthreads();
	if (VEC == 4 && (rows & 3) == 0) {
		// Slot i is row c = i / (TR / 4) of out's part of the tile, floats 4v .. 4v + 3 of it (v = i % (TR / 4)).
		/* TODO: store all four floats of slot i, out[(bx + c) * rows + gr .. gr + 3], as one float4.
		 * As written only the first of the four is stored. */
#pragma unroll
		for (int p = 0; p < TR * TC / 4 / NT; ++p) {
			const int i = t + p * NT, c = i / (TR / 4), v = i % (TR / 4), gr = by + 4 * v;
			if (bx + c < cols && gr < rows)
				out[(long long)(bx + c) * rows + gr] = tile[4 * v][c];
		}
	} else {
#pragma unroll
		for (int p = 0; p < TR * TC / NT; ++p) {
			const int i = t + p * NT, c = i / TR, r = i % TR;
			if (bx + c < cols && by + r < rows)
				out[(long long)(bx + c) * rows + by + r] = tile[r][c];
		}
	}
}
