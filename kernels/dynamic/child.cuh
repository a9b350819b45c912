/* child.cuh: the child grid of the dynamic-parallelism stages. One sequence (x and y start at its
 * first element), one tile of BLOCK x ITEMS elements per block: a grid of
 * ceil(len / (BLOCK * ITEMS)) blocks covers it. A parent launches it from the device. */
#include "batch.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK) seq_child(const float *__restrict__ x, float *__restrict__ y, long long len, float w)
{
	seq_tile(x, y, len, (long long)blockIdx.x * (BLOCK * ITEMS), w);
}

/* The child grid's size for a sequence of len elements. */
__device__ __forceinline__ unsigned child_blocks(long long len) { return (unsigned)((len + BLOCK * ITEMS - 1) / (BLOCK * ITEMS)); }
