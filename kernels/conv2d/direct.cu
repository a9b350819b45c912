// A 3x3 convolution, stride 1, padding 1, FP32, NCHW, as CNN layers compute it (a cross-correlation:
// the filter is not flipped):
//   y[img][o][i][j] = sum over ch < c, r < 3, s < 3 of  filter[o][ch][r][s] * x[img][ch][i + r - 1][j + s - 1]
// with x read as 0 outside the h x w image, so y has the image's size. x is n x c x h x w, filter
// k x c x 3 x 3, y n x k x h x w.
//
// direct: one thread per output value. It walks its c x 9 taps and reads every input value and every
// weight from global memory (through the L1 cache). Neighbouring threads of a warp compute
// neighbouring pixels of one row of one output channel: their loads of x are coalesced and their
// loads of the filter are the same address (a broadcast).
//
// The sum is taken in a fixed order, channel by channel and within a channel row by row, with fmaf;
// the smem stage sums in the same order and so gets the same bits.
//
// Tunables (-D): BLOCK, threads per block.
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void __launch_bounds__(BLOCK) conv2d_direct(const float *__restrict__ x, const float *__restrict__ filter,
                                                                float *__restrict__ y, int n, int c, int k, int h, int w)
{
	const long long q = (long long)blockIdx.x * BLOCK + threadIdx.x;   // the output's index in y
	const long long hw = (long long)h * w;
	if (q >= (long long)n * k * hw) return;
	const int j = (int)(q % w);
	const int i = (int)(q / w % h);
	const long long io = q / hw;                 // img * k + o
	const int o = (int)(io % k);
	const long long img = io / k;

	const float *xi = x + img * c * hw;
	const float *f = filter + (long long)o * c * 9;
	float acc = 0.0f;
	for (int ch = 0; ch < c; ch++) {
		const float *xc = xi + ch * hw;
#pragma unroll
		for (int r = 0; r < 3; r++) {
			const int ii = i + r - 1;
#pragma unroll
			for (int s = 0; s < 3; s++) {
				const int jj = j + s - 1;
				const float v = (ii >= 0 && ii < h && jj >= 0 && jj < w) ? xc[(long long)ii * w + jj] : 0.0f;
				acc = fmaf(f[ch * 9 + r * 3 + s], v, acc);
			}
		}
	}
	y[q] = acc;
}
