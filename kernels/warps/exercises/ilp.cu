/* Exercise ilp: several independent terms in flight per thread.
 *
 * This starter is the fastmath stage's kernel under this stage's name (the stage compiles it with
 * --use_fast_math too): one term per trip through a loop held rolled, each added to s at once. Every
 * term waits for the one before it to issue, and with two warps per scheduler the scheduler mostly
 * idles. It is right, and slow.
 *
 * The terms of an element do not depend on each other; only the running sum links them. What to do:
 *   1. Keep ILP partial sums, float acc[ILP], all zero.
 *   2. Loop over k in steps of ILP; inside, a fully unrolled loop over j = 0 .. ILP - 1 adds term
 *      k + j to acc[j].
 *   3. Add the k_terms % ILP terms left over to acc[0], then out[i] = the sum of the partial sums.
 *
 * Tunables (-D): BLOCK (threads per block), ILP (partial sums: 1, 2, 4 or 8).
 * Passing: right at every size (the sum may differ in its last bits: the check allows for it), and at
 * least 0.9x the speed of the stage's own kernel. */
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ILP
#define ILP 4
#endif

extern "C" __global__ void terms_ilp(const float *__restrict__ x, const float *__restrict__ a,
                                     const float *__restrict__ b, float *__restrict__ out, int n, int k_terms,
                                     unsigned w)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const float xi = x[i];
	const bool odd = i & 1;
	float s = 0.0f;
	/* TODO(1, 2, 3): ILP partial sums, ILP terms per trip. */
#pragma unroll 1
	for (int k = 0; k < k_terms; k++) {
		const unsigned c = (unsigned)i + (unsigned)k;
		const float u = a[c % w], v = b[(c / w) % 16];
		const float e = odd ? v : u, d = odd ? u : v;
		s += expf(-xi * e) / (1.0f + xi * d);
	}
	out[i] = s;
}
