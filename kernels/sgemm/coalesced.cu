// Stage 2: the same arithmetic with x and y swapped, so that threadIdx.x walks along a row of C.
// The 32 threads of a warp now read one element of A (a broadcast) and 32 consecutive elements of B
// (one 128-byte transaction), and write 32 consecutive elements of C. Any m, n, k.
#ifndef BS
#define BS 32
#endif

extern "C" __global__ void sgemm_coalesced(const float *__restrict__ A, const float *__restrict__ B,
                                           float *__restrict__ C, int m, int n, int k)
{
	const int col = blockIdx.x * BS + threadIdx.x;   // x -> column: neighbouring threads, neighbouring columns
	const int row = blockIdx.y * BS + threadIdx.y;
	if (row < m && col < n) {
		float acc = 0.0f;
		for (int i = 0; i < k; ++i)
			acc += A[(size_t)row * k + i] * B[(size_t)i * n + col];
		C[(size_t)row * n + col] = acc;
	}
}
