// Exercise: make the warp's global loads coalesce.
//
// C (m x n) = A (m x k) . B (k x n), row-major FP32, one thread per element of C. The launch is
// already the coalesced stage's: blockIdx.x walks the columns of C, blockIdx.y the rows, so this
// kernel is correct. But inside the block, threadIdx.x (the index that changes along a warp) picks
// the ROW: the 32 lanes of a warp read 32 elements of A that are k floats apart (32 sectors for
// 128 useful bytes), all read the same element of B, and write C a whole row apart. The lesson
// measured this layout about 12x slower than the stage's kernel.
//
// What to do:
//   1. Choose which thread index picks the column and which the row, so that neighbouring lanes
//      compute neighbouring elements of one row of C.
//
// Tunables (-D): BS, the block side (blocks of BS x BS threads, each block a BS x BS tile of C).
// Passing: within the lesson's tolerance at every size, and at least 0.9x the stage kernel's speed.
#ifndef BS
#define BS 32
#endif

extern "C" __global__ void sgemm_coalesced(const float *__restrict__ A, const float *__restrict__ B,
                                           float *__restrict__ C, int m, int n, int k)
{
	// TODO(1): along a warp threadIdx.x changes. Which of row and col should it move?
	const int row = blockIdx.y * BS + threadIdx.x;
	const int col = blockIdx.x * BS + threadIdx.y;
	if (row < m && col < n) {
		float acc = 0.0f;
		for (int i = 0; i < k; ++i)
			acc += A[(size_t)row * k + i] * B[(size_t)i * n + col];
		C[(size_t)row * n + col] = acc;
	}
}
