// Stage 1: one thread per element of C, the textbook triple loop.
// C (m x n) = A (m x k) . B (k x n), all row-major FP32.
// threadIdx.x walks down a column of C (the row index), so the 32 threads of a warp read 32 different
// rows of A (32 separate memory transactions) and the same element of B. Any m, n, k.
#ifndef BS
#define BS 32
#endif

extern "C" __global__ void sgemm_naive(const float *__restrict__ A, const float *__restrict__ B,
                                       float *__restrict__ C, int m, int n, int k)
{
	const int row = blockIdx.x * BS + threadIdx.x;   // x -> row: neighbouring threads, neighbouring rows
	const int col = blockIdx.y * BS + threadIdx.y;
	if (row < m && col < n) {
		float acc = 0.0f;
		for (int i = 0; i < k; ++i)
			acc += A[(size_t)row * k + i] * B[(size_t)i * n + col];
		C[(size_t)row * n + col] = acc;
	}
}
