// Shared by every stage of the precision lesson: the warp-level sums and the row loop's bounds.
//
// Every stage computes the root mean square of each row of a rows x cols matrix,
// rms[r] = sqrt(sum over j of v[r][j]^2 / cols), with one warp per row: lane l takes the row's
// 16-byte pieces l, l + 32, l + 64, ... (UNROLL of them loaded before any is used), adds the squares
// into its own sum, and the warp adds its 32 sums with shuffles. The grid is sized to the GPU and
// warps step through the rows. Only the format the row is stored in changes from stage to stage.
#ifndef PRECISION_COMMON_CUH
#define PRECISION_COMMON_CUH
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Sum of the 32 lanes' values; every lane gets the total.
__device__ __forceinline__ float warp_sum(float v)
{
	for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

__device__ __forceinline__ double warp_sum(double v)
{
	for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

__device__ __forceinline__ float warp_max(float v)
{
	for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
	return v;
}

// This warp's first row and the step between its rows (the number of warps in the grid).
__device__ __forceinline__ long long first_row() { return (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5; }
__device__ __forceinline__ long long row_step() { return ((long long)gridDim.x * blockDim.x) >> 5; }
__device__ __forceinline__ int lane_id() { return threadIdx.x & 31; }
#endif
