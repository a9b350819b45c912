/* branchless: one loop for every element. The two formulas differ only in which of u and v goes into
 * the exponential, so each term picks them with a select, (i odd) ? v : u, which the compiler turns
 * into SEL instructions that every lane executes: there is nothing left to branch on. Threads take
 * consecutive elements again.
 * The fastmath stage compiles this same file with --use_fast_math.
 * Tunables (-D): BLOCK (threads per block, a multiple of 32; the launch uses it). */
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
	const bool odd = i & 1;
	float s = 0.0f;
#pragma unroll 1
	for (int k = 0; k < k_terms; k++) {
		const unsigned c = (unsigned)i + (unsigned)k;
		const float u = a[c % w], v = b[(c / w) % 16];
		const float e = odd ? v : u, d = odd ? u : v;   /* selects, not a branch */
		s += expf(-xi * e) / (1.0f + xi * d);
	}
	out[i] = s;
}
