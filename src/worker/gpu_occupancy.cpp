/* gpu_occupancy: cudaOccupancyMaxPotentialBlockSize for the worker's C code. The runtime offers it
 * only as a C++ template (cuda_runtime.h): it tries every block size from the kernel's limit down in
 * steps of a warp and keeps the one with the most resident threads per SM (the largest on a tie);
 * minGridSize is that many blocks per SM times the SM count: one full wave. */
#include <cuda_runtime.h>

extern "C" cudaError_t gpu_occ_potential_block(cudaKernel_t k, size_t dynamic_smem, int *block, int *min_grid)
{
	return cudaOccupancyMaxPotentialBlockSize(min_grid, block, k, dynamic_smem, 0);
}
