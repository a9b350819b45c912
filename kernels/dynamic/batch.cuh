/* batch.cuh: the batch every stage of the dynamic lesson processes, and the one operation applied to
 * each of its elements.
 *
 * A batch of `seqs` variable-length sequences packed one after another in x (and y): sequence s holds
 * the elements [seq_begin(s), seq_begin(s + 1)). Most sequences are short, short_len x (1 + s % 8)
 * elements; in every group of 64 consecutive sequences exactly one, at a place that changes from group
 * to group, is long_len elements longer. A real batch would read these offsets from an array (the
 * data loader's cu_seqlens); here they come from a closed formula, so that the lesson needs no setup
 * step before every stage. lessons/dynamic.yaml computes the total, n = seq_begin(seqs), with the
 * same formula.
 *
 * The operation: y = x * w[s] + 0.001 * position, the element scaled by its sequence's weight plus a
 * term in its position inside the sequence (a stand-in for a positional encoding). It needs the
 * sequence of every element and where that sequence starts: a kernel cannot treat the batch as one
 * flat array and ignore the boundaries. Every stage computes it with this one function, the same
 * bits everywhere (the check is exact).
 *
 * Tunables (-D): BLOCK (threads per block), ITEMS (elements per thread per tile: the loads a thread
 * has in flight at once). */
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
#define GROUP 64

/* Where the group's long sequence sits: 0..63, different from one group to the next. */
__device__ __forceinline__ long long seq_long_slot(long long group) { return (group * 37 + 11) % GROUP; }

/* The first element of sequence s (seq_begin(seqs) is the batch's size). */
__device__ __forceinline__ long long seq_begin(long long s, long long short_len, long long long_len)
{
	const long long t = s % 8, group = s / GROUP;
	const long long shorts = s + (s / 8) * 28 + t * (t - 1) / 2;   /* sum of 1 + j % 8 over j < s */
	const long long longs = group + (s % GROUP > seq_long_slot(group) ? 1 : 0);
	return short_len * shorts + long_len * longs;
}

__device__ __forceinline__ float seq_op(float v, float w, long long pos) { return fmaf(v, w, 1.0e-3f * (float)pos); }

/* One tile of a sequence (x and y start at the sequence's first element): the elements
 * p0 + k * BLOCK + threadIdx.x, k < ITEMS, that lie before len. All ITEMS loads are issued before the
 * first store, so each thread has ITEMS loads in flight. */
__device__ __forceinline__ void seq_tile(const float *__restrict__ x, float *__restrict__ y, long long len, long long p0, float w)
{
	float v[ITEMS];
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const long long p = p0 + k * BLOCK + threadIdx.x;
		v[k] = p < len ? x[p] : 0.0f;
	}
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const long long p = p0 + k * BLOCK + threadIdx.x;
		if (p < len) y[p] = seq_op(v[k], w, p);
	}
}
