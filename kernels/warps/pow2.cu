/* pow2: the ilp kernel with its integer division and modulo by w replaced by a shift and a mask. w is
 * a value known only at run time, so c / w and c % w cost about a dozen integer instructions per term
 * (a multiply by a reciprocal prepared before the loop, then corrections); when w is a power of two,
 * c >> log2(w) and c & (w - 1) give the same answers in one instruction each. The compiler does this
 * by itself when it can see that w is a power of two (a constant, or a value written 1u << s); here it
 * cannot, so the stage passes log2(w) as w_shift, and refuses a w that is not a power of two.
 * Compiled with --use_fast_math, like the two stages before it.
 * Tunables (-D): BLOCK (threads per block, a multiple of 32), ILP (partial sums: 1, 2, 4 or 8). */
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ILP
#define ILP 4
#endif

extern "C" __global__ void terms_pow2(const float *__restrict__ x, const float *__restrict__ a,
                                      const float *__restrict__ b, float *__restrict__ out, int n, int k_terms,
                                      unsigned w, unsigned w_shift)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const float xi = x[i];
	const unsigned mask = w - 1;   /* w == 1u << w_shift */
	const bool odd = i & 1;
	float acc[ILP];
#pragma unroll
	for (int j = 0; j < ILP; j++)
		acc[j] = 0.0f;
	int k = 0;
	for (; k + ILP <= k_terms; k += ILP) {
#pragma unroll
		for (int j = 0; j < ILP; j++) {
			const unsigned c = (unsigned)i + (unsigned)(k + j);
			const float u = a[c & mask], v = b[(c >> w_shift) % 16];
			const float e = odd ? v : u, d = odd ? u : v;
			acc[j] += expf(-xi * e) / (1.0f + xi * d);
		}
	}
	for (; k < k_terms; k++) {
		const unsigned c = (unsigned)i + (unsigned)k;
		const float u = a[c & mask], v = b[(c >> w_shift) % 16];
		const float e = odd ? v : u, d = odd ? u : v;
		acc[0] += expf(-xi * e) / (1.0f + xi * d);
	}
	float s = 0.0f;
#pragma unroll
	for (int j = 0; j < ILP; j++)
		s += acc[j];
	out[i] = s;
}
