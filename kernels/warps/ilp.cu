/* ilp: the terms of one element do not depend on each other; only the running sum does. This stage
 * keeps ILP partial sums and handles ILP terms per trip through the loop, unrolled, so the scheduler
 * has ILP independent chains of instructions to pick from instead of one: while one term waits for
 * its table read or its exponential, the others can issue. Partial sum j adds the terms k = j,
 * j + ILP, j + 2 ILP, ...; the k_terms % ILP terms left at the end go to sum 0. Adding in another
 * order changes the result in its last bits, which the check allows for.
 * Compiled with --use_fast_math, like the fastmath stage: expf and / become the fast intrinsics.
 * Tunables (-D): BLOCK (threads per block, a multiple of 32), ILP (partial sums: 1, 2, 4 or 8). */
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
	float acc[ILP];
#pragma unroll
	for (int j = 0; j < ILP; j++)
		acc[j] = 0.0f;
	int k = 0;
	for (; k + ILP <= k_terms; k += ILP) {
#pragma unroll
		for (int j = 0; j < ILP; j++) {   /* ILP independent terms, one per partial sum */
			const unsigned c = (unsigned)i + (unsigned)(k + j);
			const float u = a[c % w], v = b[(c / w) % 16];
			const float e = odd ? v : u, d = odd ? u : v;
			acc[j] += expf(-xi * e) / (1.0f + xi * d);
		}
	}
	for (; k < k_terms; k++) {           /* the k_terms % ILP terms left */
		const unsigned c = (unsigned)i + (unsigned)k;
		const float u = a[c % w], v = b[(c / w) % 16];
		const float e = odd ? v : u, d = odd ? u : v;
		acc[0] += expf(-xi * e) / (1.0f + xi * d);
	}
	float s = 0.0f;
#pragma unroll
	for (int j = 0; j < ILP; j++)
		s += acc[j];
	out[i] = s;
}
