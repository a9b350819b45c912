/* Exercise tiny: the kernel every stage of this lesson launches.
 *
 * y[i] = p(x[i]), where p is the polynomial of degree DEG = 32 of the element's channel, i % 32:
 *   p(v) = c[0] + c[1] v + c[2] v^2 + ... + c[32] v^32, with c[j] = coef[j * 32 + channel].
 * Block b covers the elements [b * chunk, b * chunk + len); the loop below is written.
 *
 * What to do:
 *   1. Load this thread's 33 coefficients once, into an array the compiler can keep in registers.
 *   2. Evaluate p with Horner's rule, p = (...(c[32] v + c[31]) v + ...) v + c[0], one fmaf per step,
 *      from the highest coefficient down (the check is exact: the order of the steps matters).
 *
 * As it stands the kernel copies x: wrong everywhere.
 * Tunables (-D): BLOCK (for __launch_bounds__), MIN_BLOCKS (0: no bound), ITEMS (the launch only).
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
	/* TODO(1): this thread's coefficients. */
	const long long begin = (long long)blockIdx.x * chunk;
	const int len = begin < n ? (int)min((long long)chunk, n - begin) : 0;
	for (int o = threadIdx.x; o < len; o += blockDim.x) {
		const float v = x[begin + o];
		float p = v;   /* TODO(2): Horner's rule */
		y[begin + o] = p;
	}
}
