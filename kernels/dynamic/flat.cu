/* flat: one grid over all n elements, as if the batch were one array, and no launch from the device.
 * Block b takes the tile [b * BLOCK * ITEMS, (b + 1) * BLOCK * ITEMS). Its thread 0 finds the sequence
 * that holds the tile's first element by a binary search over the sequence starts (11 steps for 2048
 * sequences); each thread then walks forward from there, one sequence at a time, as its elements
 * cross into the next. Every SM gets an equal share of the bytes whatever the lengths are. */
#include "batch.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK) flat(const float *__restrict__ x, const float *__restrict__ w, float *__restrict__ y,
                                                       int seqs, long long n, long long short_len, long long long_len)
{
	__shared__ int first;
	const long long t0 = (long long)blockIdx.x * (BLOCK * ITEMS);
	if (threadIdx.x == 0) {   /* seq_begin(lo) <= t0 < seq_begin(hi) */
		int lo = 0, hi = seqs;
		while (hi - lo > 1) {
			const int mid = (lo + hi) / 2;
			if (seq_begin(mid, short_len, long_len) <= t0) lo = mid;
			else hi = mid;
		}
		first = lo;
	}
	float v[ITEMS];
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {   /* the loads first, while thread 0 searches */
		const long long i = t0 + k * BLOCK + threadIdx.x;
		v[k] = i < n ? x[i] : 0.0f;
	}
	__syncthreads();
	long long s = first, begin = seq_begin(s, short_len, long_len), end = seq_begin(s + 1, short_len, long_len);
	float ws = w[s];
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		const long long i = t0 + k * BLOCK + threadIdx.x;
		if (i >= n) break;
		while (i >= end) {   /* into the next sequence (a tile spans several short ones) */
			s++;
			begin = end;
			end = seq_begin(s + 1, short_len, long_len);
			ws = w[s];
		}
		y[i] = seq_op(v[k], ws, i - begin);
	}
}
