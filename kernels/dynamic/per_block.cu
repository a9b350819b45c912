/* per_block: one block per sequence, the batch index on the grid. Block s walks its sequence in
 * tiles of BLOCK x ITEMS elements. A short sequence is one tile; a long one is hundreds, all done by
 * the one block that drew it, on one SM. See batch.cuh for the layout and the operation. */
#include "batch.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK) per_block(const float *__restrict__ x, const float *__restrict__ w, float *__restrict__ y,
                                                            long long short_len, long long long_len)
{
	const long long s = blockIdx.x;
	const long long begin = seq_begin(s, short_len, long_len), len = seq_begin(s + 1, short_len, long_len) - begin;
	const float ws = w[s];
	for (long long p0 = 0; p0 < len; p0 += BLOCK * ITEMS)
		seq_tile(x + begin, y + begin, len, p0, ws);
}
