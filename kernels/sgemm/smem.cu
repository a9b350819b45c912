// Stage 3: shared-memory tiling. A block of TILE x TILE threads computes a TILE x TILE tile of C.
// It walks along k in steps of TILE: each thread copies one element of A and one of B into shared
// memory, the block synchronises, and every thread then reads TILE values of each from shared memory.
// Each element loaded from global memory is used TILE times. Out-of-range elements are loaded as 0,
// so any m, n, k works.
#ifndef TILE
#define TILE 32
#endif

extern "C" __global__ void sgemm_smem(const float *__restrict__ A, const float *__restrict__ B,
                                      float *__restrict__ C, int m, int n, int k)
{
	__shared__ float As[TILE][TILE];
	__shared__ float Bs[TILE][TILE];
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int row = blockIdx.y * TILE + ty;
	const int col = blockIdx.x * TILE + tx;
	float acc = 0.0f;
	for (int k0 = 0; k0 < k; k0 += TILE) {
		As[ty][tx] = (row < m && k0 + tx < k) ? A[(size_t)row * k + k0 + tx] : 0.0f;
		Bs[ty][tx] = (k0 + ty < k && col < n) ? B[(size_t)(k0 + ty) * n + col] : 0.0f;
		__syncthreads();
#pragma unroll
		for (int i = 0; i < TILE; ++i)
			acc += As[ty][i] * Bs[i][tx];   // As[ty][i]: broadcast; Bs[i][tx]: consecutive banks
		__syncthreads();
	}
	if (row < m && col < n)
		C[(size_t)row * n + col] = acc;
}
