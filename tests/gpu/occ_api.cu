// occ_api CUBIN ENTRY [DYNAMIC_SMEM]: prints "BLOCK MIN_GRID", what cudaOccupancyMaxPotentialBlockSize
// answers for kernel ENTRY of the compiled CUBIN on GPU 0, so that tests/gpu/lessons_new.sh can hold
// the launch lesson's occupancy stage to the API's own answer, from a process of its own.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		std::fprintf(stderr, "usage: occ_api CUBIN ENTRY [DYNAMIC_SMEM]\n");
		return 2;
	}
	cudaLibrary_t lib;
	cudaKernel_t k;
	cudaError_t e = cudaLibraryLoadFromFile(&lib, argv[1], nullptr, nullptr, 0, nullptr, nullptr, 0);
	if (e == cudaSuccess) e = cudaLibraryGetKernel(&k, lib, argv[2]);
	int block = 0, min_grid = 0;
	if (e == cudaSuccess) e = cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, k, argc > 3 ? std::atol(argv[3]) : 0, 0);
	if (e != cudaSuccess) {
		std::fprintf(stderr, "occ_api: %s: %s\n", argv[1], cudaGetErrorString(e));
		return 1;
	}
	std::printf("%d %d\n", block, min_grid);
	return 0;
}
