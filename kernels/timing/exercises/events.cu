// Exercise: the SAXPY that the tool's own method times, z[i] = a * x[i] + y[i] for every i < n.
// One thread per element: thread i of the grid (blockIdx.x * blockDim.x + threadIdx.x, as a 64-bit
// index) handles element i. The grid has ceil(n / BLOCK) blocks, so the last one runs past n.
extern "C" __global__ void saxpy(const float *x, const float *y, float *z, float a, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	// TODO: compute a * x[i] + y[i] with one fused multiply-add (fmaf), so the bits match the
	// reference exactly; this only copies y.
	if (i < n) z[i] = y[i];
}
