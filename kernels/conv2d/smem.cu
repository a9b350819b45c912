// The 3x3 convolution of direct.cu (stride 1, padding 1, FP32, NCHW), with its operands staged in
// shared memory and several outputs per thread.
//
// A block computes a tile of TH = TY * ROWS rows by TW columns of one image, for KB output channels.
// It walks the input channels CB at a time: the block copies the CB channels' input tile with its
// halo ((TH + 2) x (TW + 2) values each, zeros outside the image) and the KB x CB x 9 weights into
// shared memory, then each thread computes ROWS vertically adjacent pixels of column tx for all KB
// output channels: per channel it reads the (ROWS + 2) x 3 input values it needs into registers once
// and uses each for up to 3 x KB multiply-adds. Every input value comes from global memory about once
// per KB output channels instead of 9 times per output channel, and the weights are shared-memory
// broadcasts (every thread of the block reads the same ones at the same time), stored tap by tap so
// that one 16-byte load gives one tap's weights for 4 output channels (KB is a multiple of 4).
//
// Each sum is taken in direct.cu's order (channel by channel, then the 9 taps row by row, with fmaf),
// so the results are the same bits.
//
// Tunables (-D): TW (tile columns = threads in x), TY (threads in y), ROWS (rows per thread),
// KB (output channels per block, a multiple of 4), CB (input channels per shared-memory round).
#ifndef TW
#define TW 28
#endif
#ifndef TY
#define TY 7
#endif
#ifndef ROWS
#define ROWS 4
#endif
#ifndef KB
#define KB 8
#endif
#ifndef CB
#define CB 8
#endif
#define TH (TY * ROWS)
#define TILE_W (TW + 2)
#define TILE_AREA ((TH + 2) * TILE_W)

extern "C" __global__ void __launch_bounds__(TW * TY) conv2d_smem(const float *__restrict__ x, const float *__restrict__ filter,
                                                                float *__restrict__ y, int n, int c, int k, int h, int w)
{
	extern __shared__ float4 smem4[];
	float *xs = reinterpret_cast<float *>(smem4);   // [CB][TH + 2][TW + 2]
	float *ws = xs + (CB * TILE_AREA + 3) / 4 * 4;   // [CB][9][KB], 16-byte aligned
	const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TW + tx;
	const int j0 = blockIdx.x * TW, i0 = blockIdx.y * TH;
	const int kblocks = (k + KB - 1) / KB;
	const int img = blockIdx.z / kblocks, o0 = (blockIdx.z % kblocks) * KB;
	const long long hw = (long long)h * w;
	const float *xi = x + (long long)img * c * hw;

	float acc[KB][ROWS];
#pragma unroll
	for (int kk = 0; kk < KB; kk++)
#pragma unroll
		for (int rr = 0; rr < ROWS; rr++) acc[kk][rr] = 0.0f;

	for (int c0 = 0; c0 < c; c0 += CB) {
		const int cn = min(CB, c - c0);
		__syncthreads();   // the previous round's reads are done
		for (int idx = tid; idx < CB * TILE_AREA; idx += TW * TY) {
			const int ch = idx / TILE_AREA, rem = idx - ch * TILE_AREA;
			const int ii = i0 + rem / TILE_W - 1, jj = j0 + rem % TILE_W - 1;
			xs[idx] = (ch < cn && ii >= 0 && ii < h && jj >= 0 && jj < w) ? xi[(c0 + ch) * hw + (long long)ii * w + jj] : 0.0f;
		}
		for (int idx = tid; idx < CB * KB * 9; idx += TW * TY) {
			const int ch = idx / (KB * 9), t = idx / KB % 9, kk = idx % KB;
			ws[idx] = (ch < cn && o0 + kk < k) ? filter[((long long)(o0 + kk) * c + c0 + ch) * 9 + t] : 0.0f;
		}
		__syncthreads();
		for (int ch = 0; ch < cn; ch++) {
			float xv[ROWS + 2][3];
#pragma unroll
			for (int rr = 0; rr < ROWS + 2; rr++)
#pragma unroll
				for (int s = 0; s < 3; s++) xv[rr][s] = xs[ch * TILE_AREA + (ty * ROWS + rr) * TILE_W + tx + s];
			const float4 *wc = reinterpret_cast<const float4 *>(ws + ch * 9 * KB);
#pragma unroll
			for (int r = 0; r < 3; r++)
#pragma unroll
				for (int s = 0; s < 3; s++)
#pragma unroll
					for (int k4 = 0; k4 < KB / 4; k4++) {
						const float4 w4 = wc[(r * 3 + s) * (KB / 4) + k4];   // tap (r, s) for 4 output channels
#pragma unroll
						for (int rr = 0; rr < ROWS; rr++) {
							const float v = xv[rr + r][s];
							acc[4 * k4 + 0][rr] = fmaf(w4.x, v, acc[4 * k4 + 0][rr]);
							acc[4 * k4 + 1][rr] = fmaf(w4.y, v, acc[4 * k4 + 1][rr]);
							acc[4 * k4 + 2][rr] = fmaf(w4.z, v, acc[4 * k4 + 2][rr]);
							acc[4 * k4 + 3][rr] = fmaf(w4.w, v, acc[4 * k4 + 3][rr]);
						}
					}
		}
	}

	const int j = j0 + tx;
	if (j >= w) return;
#pragma unroll
	for (int kk = 0; kk < KB; kk++) {
		if (o0 + kk >= k) break;
		float *yo = y + ((long long)img * k + o0 + kk) * hw;
#pragma unroll
		for (int rr = 0; rr < ROWS; rr++) {
			const int i = i0 + ty * ROWS + rr;
			if (i < h) yo[(long long)i * w + j] = acc[kk][rr];
		}
	}
}
