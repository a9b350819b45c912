/* Exercise branchless: one loop for every element, no branch.
 *
 * This starter is the divergent kernel under the stage's name: it branches on i % 2 into two loops,
 * and since even and odd elements sit side by side in every warp, each warp runs both loops with half
 * its lanes idle. It is right, and about half as fast as it could be.
 *
 * The two loops differ only in whether u or v goes into the exponential. What to do:
 *   1. Work out once, before the loop, whether this element is odd.
 *   2. Write a single loop whose terms choose their operands with selects (cond ? p : q), so that
 *      every lane runs the same instructions.
 *
 * Keep #pragma unroll 1 on the loop (one term at a time, as in the stage's own kernel).
 * Tunables (-D): BLOCK (threads per block; the launch uses it).
 * Passing: right at every size, and at least 0.9x the speed of the stage's own kernel. */
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void terms_branchless(const float *__restrict__ x, const float *__restrict__ a,
                                            const float *__restrict__ b, float *__restrict__ out, int n,
                                            int k_terms, unsigned w)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const float xi = x[i];
	float s = 0.0f;
	/* TODO(1, 2): one loop and two selects instead of this branch. */
	if (i % 2 == 0) {
#pragma unroll 1
		for (int k = 0; k < k_terms; k++) {
			const unsigned c = (unsigned)i + (unsigned)k;
			const float u = a[c % w], v = b[(c / w) % 16];
			s += expf(-xi * u) / (1.0f + xi * v);
		}
	} else {
#pragma unroll 1
		for (int k = 0; k < k_terms; k++) {
			const unsigned c = (unsigned)i + (unsigned)k;
			const float u = a[c % w], v = b[(c / w) % 16];
			s += expf(-xi * v) / (1.0f + xi * u);
		}
	}
	out[i] = s;
}
