// Exercise: shared-memory tiling.
//
// A block of TILE x TILE threads owns a TILE x TILE tile of C and walks along k in steps of TILE.
// At each step every thread copies ONE element of A and ONE of B into the shared tiles As and Bs,
// the block waits, and then each thread runs TILE multiply-adds reading only shared memory. Each
// value fetched from global memory is then used by TILE threads instead of one.
//
// What to do:
//   1. Load: thread (tx, ty) copies A[row][k0 + tx] into As[ty][tx] and B[k0 + ty][col] into
//      Bs[ty][tx]. Store 0.0f for an element outside A or B: m, n and k need not be multiples
//      of TILE, and the zeros then add nothing.
//   2. Compute: add the TILE products of row ty of As and column tx of Bs into acc.
//   The barriers and the final store are written.
//
// Tunables (-D): TILE, the tile side and the block side (blocks of TILE x TILE threads).
// Passing: within the lesson's tolerance at every size, and at least 0.9x the stage kernel's speed.
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
		// TODO(1): fill As[ty][tx] from A and Bs[ty][tx] from B, 0.0f outside the matrices.
		As[ty][tx] = 0.0f;
		Bs[ty][tx] = 0.0f;
		__syncthreads();
		// TODO(2): all TILE multiply-adds, As[ty][i] * Bs[i][tx]. The placeholder does i = 0 only.
		acc += As[ty][0] * Bs[0][tx];
		__syncthreads();
	}
	if (row < m && col < n)
		C[(size_t)row * n + col] = acc;
}
