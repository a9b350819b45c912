// Exercise: a grid-stride loop.
//
// The launch no longer gives you one thread per element: the grid is sized to the GPU,
// min(sm_count * BLOCKS_PER_SM, ceil_div(n, BLOCK)) blocks, so at the lesson's size each thread
// must handle many elements. The body below is the coalesced stage's: one element per thread.
// As it stands, every element past the grid's first gridDim.x * blockDim.x is never written.
//
// What to do:
//   1. Work out the grid's total thread count: the distance between two elements one thread handles.
//   2. Turn the single `if` into a loop that starts at the thread's global index and steps by it.
//      Neighbouring threads must still take neighbouring elements at every step.
//
// Tunables (-D): BLOCK (threads per block), BLOCKS_PER_SM (blocks launched per multiprocessor).
// Passing: correct at every size, and at least 0.9x the speed of the stage's own kernel.
extern "C" __global__ void saxpy_gridstride(const float *x, const float *y, float *z, float a, long long n)
{
	// TODO(1): the stride of the loop, in elements (use 64-bit arithmetic).
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;

	// TODO(2): make this a loop over i, i + stride, i + 2 * stride, ... while below n.
	if (i < n) z[i] = a * x[i] + y[i];
}
