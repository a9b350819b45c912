/* divergent: even and odd elements take two different loops, chosen by threadIdx.x % 2, so every
 * warp splits in half at the branch: the even lanes run their loop while the odd lanes wait, then the
 * other way round. Every instruction of either loop is issued with 16 of the warp's 32 lanes at work.
 *
 * What every stage of the lesson computes, for element i with x = x[i] and k = 0 .. k_terms - 1:
 * the cell c = i + k of a grid w wide has column c % w and row c / w; u = a[c % w] and
 * v = b[(c / w) % 16] are read from two small tables, and
 *   out[i] = sum over k of exp(-x u) / (1 + x v)   for even i,
 *            sum over k of exp(-x v) / (1 + x u)   for odd i.
 * A term costs an integer division and a modulo by w, two table reads, an exponential and a division.
 *
 * The loops are held rolled (#pragma unroll 1), one term at a time, so that each later stage changes
 * one thing; the ilp stage is about what unrolling brings.
 * Tunables (-D): BLOCK (threads per block, a multiple of 32; the launch uses it). */
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void terms_divergent(const float *__restrict__ x, const float *__restrict__ a,
                                           const float *__restrict__ b, float *__restrict__ out, int n,
                                           int k_terms, unsigned w)
{
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const float xi = x[i];
	float s = 0.0f;
	if (threadIdx.x % 2 == 0) {   /* blockDim.x is even, so this is i % 2 == 0 */
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
