/* poly: y[i] = p(x[i]) for n floats, where p is the polynomial of the element's channel, i % 32,
 * of degree DEG = 32, evaluated by Horner's rule: 32 dependent multiply-adds per element for 8 bytes
 * of memory traffic. A lane always meets the same channel (blocks start at multiples of 32 and step
 * by whole warps), so each thread loads its channel's 33 coefficients once and keeps them in
 * registers: about 44 registers per thread, which is what makes the launch configuration matter.
 *
 * Every stage of the lesson runs this file; only the launch changes. Block b covers the elements
 * [b * chunk, (b + 1) * chunk) with a loop that steps by the block's size, so the same code serves one
 * element per thread (chunk = blockDim.x, a grid as large as the data) and a grid of a few waves
 * (chunk = n / grid, each block looping over its share).
 * Tunables (-D): BLOCK (threads per block, for __launch_bounds__), MIN_BLOCKS (0: no bound; else
 * __launch_bounds__(BLOCK, MIN_BLOCKS), which caps registers so that MIN_BLOCKS blocks fit on an SM). */
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
	float c[DEG + 1];   /* this lane's polynomial, in registers */
#pragma unroll
	for (int j = 0; j <= DEG; j++)
		c[j] = coef[j * 32 + channel];
	const long long begin = (long long)blockIdx.x * chunk;
	const int len = begin < n ? (int)min((long long)chunk, n - begin) : 0;
	for (int o = threadIdx.x; o < len; o += blockDim.x) {
		const float v = x[begin + o];
		float p = c[DEG];
#pragma unroll
		for (int j = DEG - 1; j >= 0; j--)
			p = fmaf(p, v, c[j]);
		y[begin + o] = p;
	}
}
