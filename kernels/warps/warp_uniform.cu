/* warp_uniform: the same two loops, but the branch now goes one way for a whole warp. Threads are
 * handed elements so that the even elements of a stretch of 64 go to one warp and the odd ones to the
 * next: warp 2p takes elements 64p, 64p + 2, ..., 64p + 62 and warp 2p + 1 takes 64p + 1, ...,
 * 64p + 63. The test (threadIdx.x / 32) % 2 is then the same for all 32 lanes of a warp, and no warp
 * splits. The price: a warp reads x two floats apart (half of each 128-byte line it touches), which
 * costs nothing here, since each x is read once for thousands of terms.
 * Tunables (-D): BLOCK (threads per block, a multiple of 64: whole pairs of warps). */
#ifndef BLOCK
#define BLOCK 256
#endif

extern "C" __global__ void terms_warp(const float *__restrict__ x, const float *__restrict__ a,
                                      const float *__restrict__ b, float *__restrict__ out, int n, int k_terms,
                                      unsigned w)
{
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	const int lane = threadIdx.x % 32, odd_warp = (threadIdx.x / 32) % 2;
	const int i = (t / 64) * 64 + 2 * lane + odd_warp;   /* a pair of warps covers 64 elements */
	if (i >= n)
		return;
	const float xi = x[i];
	float s = 0.0f;
	if ((threadIdx.x / 32) % 2 == 0) {   /* a whole warp of even elements */
#pragma unroll 1
		for (int k = 0; k < k_terms; k++) {
			const unsigned c = (unsigned)i + (unsigned)k;
			const float u = a[c % w], v = b[(c / w) % 16];
			s += expf(-xi * u) / (1.0f + xi * v);
		}
	} else {                             /* a whole warp of odd ones */
#pragma unroll 1
		for (int k = 0; k < k_terms; k++) {
			const unsigned c = (unsigned)i + (unsigned)k;
			const float u = a[c % w], v = b[(c / w) % 16];
			s += expf(-xi * v) / (1.0f + xi * u);
		}
	}
	out[i] = s;
}
