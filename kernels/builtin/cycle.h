/* The `cycle` init (lessons/README.md, "A random cycle: init: cycle"): element i of a buffer of W = 2^L
 * elements holds the index that follows i on one cycle through all W indices, in an order drawn from a
 * key. Written once for the worker's fill kernel (kernels/builtin/data.cu, compiled by NVRTC) and for
 * the host's tests (tests/test_cycle.c), in the C and CUDA both understand.
 *
 * The order is a keyed bijection sigma on [0, W): position t on the cycle is index sigma(t), and
 * next[i] = sigma(sigma^-1(i) + 1 mod W), one cycle through every index. sigma is triangular: bit m of
 * sigma(t) is bit m of t XOR f_m(t mod 2^m), where f_m is the top bit of a keyed 32-bit state that has
 * taken in bits 0 .. m-1 of t, one multiply and one xor-shift a bit. So sigma mod 2^k is itself a
 * bijection of [0, 2^k) for every k, and the first 2^k elements, each masked with 2^k - 1, are one
 * cycle through [0, 2^k): a chase over a working set smaller than the buffer is a cycle too (and the
 * low k bits of the index after i are a keyed function of i's low k bits). Two neighbours t, t + 1
 * differ in bit 0, so every f_m of the next index is drawn afresh: the index after i is i's opposite in
 * parity and otherwise scattered, and without the key the next index is known only by loading it. One element costs 2L steps of the state (O(1) in the buffer's size).
 * Indices are 32-bit: L is at most 32 (LESSON_CYCLE_MAX_LOG2, which the plan checks). */
#ifndef CC_CYCLE_H
#define CC_CYCLE_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define CYCLE_FN static __host__ __device__ __forceinline__
#else
#define CYCLE_FN static inline
#endif

/* The state's three words, from a 64-bit key (splitmix64's finaliser, twice). */
typedef struct { unsigned h0, k0, k1; } cycle_key;

CYCLE_FN unsigned long long cycle_mix64(unsigned long long x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* The words of key: the first state, and what a 0 bit and a 1 bit xor into it (never equal). */
CYCLE_FN cycle_key cycle_key_of(unsigned long long key)
{
	unsigned long long a = cycle_mix64(key), b = cycle_mix64(key ^ 0x6a09e667f3bcc908ULL);
	cycle_key k;
	k.h0 = (unsigned)a;
	k.k0 = (unsigned)b;
	k.k1 = (unsigned)(b >> 32) | 1u;
	if (k.k1 == k.k0) k.k1 ^= 0x80000000u;
	return k;
}

/* The state after one more bit b. */
CYCLE_FN unsigned cycle_state(unsigned h, unsigned b, const cycle_key *k)
{
	h = (h ^ (b ? k->k1 : k->k0)) * 0x7feb352du;
	return h ^ (h >> 15);
}

CYCLE_FN unsigned cycle_mask(int L) { return L >= 32 ? 0xffffffffu : (1u << L) - 1u; }

/* sigma(t) on L bits: the index at position t of the cycle. */
CYCLE_FN unsigned cycle_at(unsigned t, int L, const cycle_key *k)
{
	unsigned h = k->h0, y = 0;
	for (int m = 0; m < L; m++) {
		unsigned b = (t >> m) & 1u;
		y |= (b ^ (h >> 31)) << m;
		h = cycle_state(h, b, k);
	}
	return y;
}

/* sigma^-1(i) on L bits: the position of index i on the cycle. */
CYCLE_FN unsigned cycle_pos(unsigned i, int L, const cycle_key *k)
{
	unsigned h = k->h0, t = 0;
	for (int m = 0; m < L; m++) {
		unsigned b = ((i >> m) & 1u) ^ (h >> 31);
		t |= b << m;
		h = cycle_state(h, b, k);
	}
	return t;
}

/* The index after i (i < 2^L) on the cycle of key over 2^L indices. */
CYCLE_FN unsigned cycle_next(unsigned i, int L, const cycle_key *k)
{
	return cycle_at((cycle_pos(i, L, k) + 1u) & cycle_mask(L), L, k);
}
#endif
