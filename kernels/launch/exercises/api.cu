/* Exercise api: a kernel for a grid of one wave.
 *
 * The stage launches cudaOccupancyMaxPotentialBlockSize's answer: blocks of occ_block threads (640
 * for this kernel on an H100) and occ_min_grid of them (264 there), one wave. Each block covers chunk
 * = n / grid elements, rounded up to a multiple of 32: far more elements than it has threads.
 *
 * This starter was written for a grid as large as the data: each thread computes one element, the
 * first of its share, and stops. Every other element stays unwritten.
 *
 * What to do: let each thread go on through the block's share, one block size further each time,
 * until the end of it. Use blockDim.x: the block size is chosen at run time.
 *
 * Tunables (-D): none in this stage (BLOCK and MIN_BLOCKS keep their defaults; MIN_BLOCKS 0 means no
 * __launch_bounds__, which the occupancy API would otherwise respect).
 * Passing: the exact result at every size, and at least 0.9x the speed of the stage's own kernel. */
#define DEG 32
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#if MIN_BLOCKS > 0
#define BOUNDS __launch_bounds__(BLOCK, MIN_BLOCKS)
#else
#define BOUNDS
#endif

extern "C" __global__ void BOUNDS poly(const float *__restrict__ x, const float *__restrict__ coef,
                                       float *__restrict__ y, long long n, int chunk)
{
	const int channel = threadIdx.x % 32;
	float c[DEG + 1];
#pragma unroll
	for (int j = 0; j <= DEG; j++)
		c[j] = coef[j * 32 + channel];
	const long long begin = (long long)blockIdx.x * chunk;
	const int len = begin < n ? (int)min((long long)chunk, n - begin) : 0;
	const int o = threadIdx.x;   /* TODO: every element of the share, not only the first */
	if (o < len) {
		const float v = x[begin + o];
		float p = c[DEG];
#pragma unroll
		for (int j = DEG - 1; j >= 0; j--)
			p = fmaf(p, v, c[j]);
		y[begin + o] = p;
	}
}
