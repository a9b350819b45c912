/* vec: the stream stage's order (blockIdx.x walks down the columns of in), with 16-byte accesses both
 * ways. A TR x TC tile of in goes through a padded shared tile, moved by NT threads in one dimension.
 * With VEC 4 each thread loads float4s from rows of in (TC / 4 threads cover a tile row) and stores
 * float4s into rows of out, each built from four rows of the tile down one column (TR / 4 threads
 * cover a row of out). A float4 needs a 16-byte aligned address: the loads use it only when cols is a
 * multiple of 4 (every row of in starts on 16 bytes), the stores only when rows is; otherwise, or with
 * VEC 1, that side moves one float per thread. */
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
		// Slot i is row c = i / (TR / 4) of out's part of the tile, its floats 4v .. 4v + 3 with v = i %
		// (TR / 4): tile[4v + q][c], word (4v + q) * (TC + 1) + c, bank (4v + c + q) % 32. At TR 32 a
		// warp's 8 x 4 slots use all 32 banks; at TR 64 (16 x 2) the lanes v and v + 8 meet (2-way).
#pragma unroll
		for (int p = 0; p < TR * TC / 4 / NT; ++p) {
			const int i = t + p * NT, c = i / (TR / 4), v = i % (TR / 4), gr = by + 4 * v;
			if (bx + c < cols && gr < rows)
				*(float4 *)(out + (long long)(bx + c) * rows + gr) =
					make_float4(tile[4 * v][c], tile[4 * v + 1][c], tile[4 * v + 2][c], tile[4 * v + 3][c]);
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
